package widget

// A Link keeps two widgets' keys equal in the front end (ipywidgets' jslink), or one following
// the other (jsdlink): no message reaches the kernel when the source moves, so no Go code runs.
type Link struct{ *Model }

// NewLink keeps source's key and target's key equal, both ways.
func NewLink(source Widget, sourceKey string, target Widget, targetKey string) *Link {
	return newLink("LinkModel", source, sourceKey, target, targetKey)
}

// NewDirectionalLink makes target's key follow source's, one way.
func NewDirectionalLink(source Widget, sourceKey string, target Widget, targetKey string) *Link {
	return newLink("DirectionalLinkModel", source, sourceKey, target, targetKey)
}

func newLink(modelName string, source Widget, sourceKey string, target Widget, targetKey string) *Link {
	m := open(source.model().proto, modelName, modelName, "", map[string]any{
		"source": []any{source.model().ref(), sourceKey},
		"target": []any{target.model().ref(), targetKey},
	}, nil)
	return &Link{m}
}

// Unlink removes the link.
func (l *Link) Unlink() { l.Close() }
