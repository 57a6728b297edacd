package widget

import (
	"sync/atomic"

	"github.com/gptnotes/gptnotes/kernel/comm"
)

// The comm targets a front end opens when it connects, one per protocol: opening one says
// which protocol the front end speaks.

// frontendValidated is set once a 1.0 front end has opened the version handshake, unset if it
// then says it does not satisfy the version.
var frontendValidated atomic.Bool

func init() {
	comm.Register(TargetVersion, openVersion)
	comm.Register(TargetControl, openControl)
}

// openVersion serves 1.0's handshake: the classic notebook opens jupyter.widget.version when
// it loads; the kernel answers with the front-end version range it wants, the front end with
// whether it satisfies it.
func openVersion(c *comm.Comm, data map[string]any) {
	heardFrom(v1{})
	// Only the 1.0 front end opens this comm; it shows widgets from the moment it opens it
	// (the cells of a Run All can run before its answer arrives).
	frontendValidated.Store(true)
	c.OnMsg(func(data map[string]any) {
		ok, _ := data["validated"].(bool)
		frontendValidated.Store(ok)
		if !ok {
			comm.Logf("widget: the front end's widgets (version %v) do not satisfy %s", data["frontend_version"], frontendVersion)
		}
	})
	c.Send(map[string]any{"version": frontendVersion})
}

// openControl serves 2.1's control comm: a 2.x front end opens it when it connects (a page
// reloaded, a notebook reopened) and asks for every model's state in one message,
// request_states; the answer, update_states, carries each live model of protocol 2 as a saved
// notebook's widget state does, binary values as buffers (paths [id, "state", key…]). Models
// of protocol 1.0 are left out (a 2.x front end cannot load their module), and counted in the
// log.
func openControl(c *comm.Comm, data map[string]any) {
	heardFrom(v2{})
	c.OnMsg(func(data map[string]any) {
		if data["method"] != "request_states" {
			comm.Logf("widget: control comm %s: unknown method %q", c.ID, data["method"])
			return
		}
		states, skipped := liveStates()
		s, paths, buffers := removeBuffers(states)
		if skipped > 0 {
			comm.Logf("widget: request_states: %d widgets of protocol 1.0 left out", skipped)
		}
		c.Send(map[string]any{"method": "update_states", "states": s, "buffer_paths": paths}, buffers...)
	})
}

// liveStates is every open model of protocol 2 by id, each as {model_name, model_module,
// model_module_version, state}; skipped counts the others.
func liveStates() (states map[string]any, skipped int) {
	liveMu.Lock()
	models := make([]*Model, 0, len(live))
	for _, m := range live {
		models = append(models, m)
	}
	liveMu.Unlock()
	states = map[string]any{}
	for _, m := range models {
		if m.proto.name() != (v2{}).name() {
			skipped++
			continue
		}
		s := m.snapshot(nil)
		states[m.ModelID()] = map[string]any{
			"model_name":           s["_model_name"],
			"model_module":         s["_model_module"],
			"model_module_version": s["_model_module_version"],
			"state":                s,
		}
	}
	return states, skipped
}
