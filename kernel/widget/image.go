package widget

import "fmt"

// An Image shows a picture from its encoded bytes (PNG, JPEG, GIF…), sent to the front end as
// a binary buffer, not as base64 text: a redrawn figure costs its bytes on the wire.
type Image struct{ *Model }

// NewImage makes an image of format ("png", "jpeg", "gif", "svg+xml") from its bytes.
func NewImage(format string, value []byte) *Image {
	m := domWidget(speaking(), "Image", "ImageModel", "ImageView", map[string]any{
		"format": format, "height": "", "width": "", "value": value})
	m.describe = func() string {
		return fmt.Sprintf("Image %s of %d bytes (a widget; its view shows in a notebook with widgets)",
			m.Get("format"), len(m.Get("value").([]byte)))
	}
	return &Image{m}
}

// Value is the image's bytes.
func (i *Image) Value() []byte { return i.Get("value").([]byte) }

// SetValue replaces the picture.
func (i *Image) SetValue(b []byte) { i.Set("value", b) }

// SetSize sets the width and height the front end shows it at (CSS values, "" for natural).
func (i *Image) SetSize(width, height string) {
	i.SetState(map[string]any{"width": width, "height": height})
}
