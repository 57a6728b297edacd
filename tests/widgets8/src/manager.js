// LiveManager: ipywidgets 8's HTMLManager connected to a running kernel, as ipywidgets' own
// live-kernel web example connects it. HTMLManager alone renders saved state; this subclass gives
// it the kernel's comms: the kernel's comm_opens on `jupyter.widget` become models, the models'
// changes go back over those comms, and a reloaded page fetches every live model's state
// through the `jupyter.widget.control` comm (ManagerBase._loadFromKernel).
import * as base from '@jupyter-widgets/base';
import { HTMLManager } from '@jupyter-widgets/html-manager';
import { LiveOutputModel } from './output.js';

export class LiveManager extends HTMLManager {
  // kernel is a @jupyterlab/services KernelConnection.
  constructor(kernel) {
    super();
    this.kernel = kernel;
    // Every comm the kernel opens on the widget target is a model; the shim gives it the
    // interface ManagerBase expects (the one ipywidgets 7's services shim defined).
    kernel.registerCommTarget(this.comm_target_name, async (comm, msg) => {
      await this.handle_comm_open(new base.shims.services.Comm(comm), msg);
    });
  }

  // _create_comm opens a comm from the front end: a model made here, the control comm, or, on
  // reload, the front-end end of a comm the kernel opened before (data undefined: no comm_open).
  async _create_comm(targetName, modelId, data, metadata, buffers) {
    const comm = this.kernel.createComm(targetName, modelId);
    if (data || metadata) {
      comm.open(data, metadata, buffers);
    }
    return new base.shims.services.Comm(comm);
  }

  // _get_comm_info lists the kernel's open widget comms (comm_info_request); ManagerBase uses it
  // only when the control comm does not answer.
  async _get_comm_info() {
    const reply = await this.kernel.requestCommInfo({ target_name: this.comm_target_name });
    if (reply.content.status !== 'ok') {
      throw new Error('comm_info_request failed: ' + JSON.stringify(reply.content));
    }
    return reply.content.comms;
  }

  // loadClass serves html-manager's classes, except the Output model, which here also takes the
  // kernel's outputs while the kernel captures into it (LiveOutputModel).
  loadClass(className, moduleName, moduleVersion) {
    if (moduleName === '@jupyter-widgets/output' && className === 'OutputModel') {
      return Promise.resolve(LiveOutputModel);
    }
    return super.loadClass(className, moduleName, moduleVersion);
  }
}
