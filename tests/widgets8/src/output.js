// LiveOutputModel: html-manager's Output model plus what a live kernel needs. While the kernel
// captures into an Output widget (Output.Capture in Go), the model's msg_id is the id of the
// request being served; the outputs of that request belong in the widget, not in the cell. This
// model hooks the kernel's iopub messages of that id (a message hook, which runs before the
// cell's own handler and can stop it), adds them to its outputs, and sends the new outputs back
// to the kernel as JupyterLab's widget manager does. The view is html-manager's OutputView.
import { OutputModel } from '@jupyter-widgets/html-manager/lib/output.js';

export class LiveOutputModel extends OutputModel {
  initialize(attributes, options) {
    super.initialize(attributes, options);
    this._hooked = null; // [msg_id, hook] while a capture is under way
    this.listenTo(this, 'change:msg_id', this._follow);
    this._follow();
  }

  // _follow moves the message hook to the current msg_id ('' ends the capture).
  _follow() {
    const kernel = this.widget_manager.kernel;
    if (this._hooked) {
      kernel.removeMessageHook(...this._hooked);
      this._hooked = null;
    }
    const msgId = this.get('msg_id');
    if (msgId) {
      const hook = (msg) => this._take(msg);
      kernel.registerMessageHook(msgId, hook);
      this._hooked = [msgId, hook];
    }
  }

  // _take keeps an output message of the capture; it returns false so the cell does not show it.
  _take(msg) {
    const type = msg.header.msg_type;
    switch (type) {
      case 'stream':
      case 'display_data':
      case 'execute_result':
      case 'error':
        this.outputs.add({ output_type: type, ...msg.content });
        break;
      case 'clear_output':
        this.clear_output(msg.content.wait);
        break;
      default:
        return true; // status and the rest go on to their usual handlers
    }
    this.set('outputs', this.outputs.toJSON(), { newMessage: true });
    this.save_changes();
    return false;
  }
}
