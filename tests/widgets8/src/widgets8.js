// The test page: a notebook without a notebook. It starts a gptnotes kernel on the Jupyter server
// that served it (or reconnects, after a reload, to the one it started), runs cells in it, and
// shows each cell's outputs in JupyterLab's output area, whose widget views are ipywidgets 8's own
// (html-manager's renderer, controls' and output's views). The test drives it through window.gn:
//
//   await gn.start()            connect; after a reload, restore the widgets and the cells' outputs
//   await gn.run(code)          run one cell; resolves to {cell, status, executionCount}
//   gn.text(i), gn.views()      what cell i shows; how many widget views the page shows
//   gn.record(), gn.takeRecording()   the widget messages of a stretch, for kernel/widget's tests
//
// The kernel's id and the cells' outputs are kept in sessionStorage, as a notebook keeps its
// outputs in its document, so a reloaded page can show them again without running anything.
import '@fortawesome/fontawesome-free/css/all.min.css';
import '@fortawesome/fontawesome-free/css/v4-shims.min.css';
import '@lumino/widgets/style/index.css';
import '@jupyterlab/outputarea/style/index.css';
import '@jupyterlab/rendermime/style/index.css';
import '@jupyter-widgets/controls/css/widgets.css';
import { KernelAPI, KernelConnection, ServerConnection } from '@jupyterlab/services';
import { OutputArea, OutputAreaModel } from '@jupyterlab/outputarea';
import { Widget } from '@lumino/widgets';
import { LiveManager } from './manager.js';

const params = new URLSearchParams(location.search);
const settings = ServerConnection.makeSettings({
  baseUrl: location.origin + '/',
  wsUrl: location.origin.replace(/^http/, 'ws') + '/',
  token: params.get('token') || '',
  appendToken: true,
});
const KERNEL_KEY = 'gptnotes-widgets8-kernel';
const CELLS_KEY = 'gptnotes-widgets8-cells';

let kernel = null;
let manager = null;
const cells = []; // {source, area} in page order
let recording = null; // the widget messages and cells since gn.record, or null
let recordingTail = null; // the recording being ended, which still takes the kernel's messages
const status = (s) => { document.getElementById('status').textContent = s; };

// connect starts a kernel of the named spec, or connects to the running one with the given id.
async function connect(name, id) {
  const model = id ? await KernelAPI.getKernelModel(id, settings) : await KernelAPI.startNew({ name }, settings);
  if (!model) {
    throw new Error(`kernel ${id} is not running`);
  }
  kernel = new KernelConnection({ model, serverSettings: settings, handleComms: true });
  kernel.anyMessage.connect((_, { msg, direction }) => keep(msg, direction === 'send' ? 'frontend' : 'kernel'));
  await kernel.info; // the kernel_info reply: the websocket is up and the kernel answers
  manager = new LiveManager(kernel);
  sessionStorage.setItem(KERNEL_KEY, model.id);
}

// keep adds a comm message to the recording, if one is under way: the front end's comm_open,
// comm_msg and comm_close (what ipywidgets 8 sends), and the kernel's, buffers in base64.
function keep(msg, from) {
  const type = msg.header.msg_type;
  const into = recording || (from === 'kernel' ? recordingTail : null);
  if (!into || !['comm_open', 'comm_msg', 'comm_close'].includes(type)) {
    return;
  }
  const buffers = (msg.buffers || []).map(b => {
    const bytes = b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    let s = '';
    for (const x of bytes) s += String.fromCharCode(x);
    return btoa(s);
  });
  const step = { from, msg_type: type, content: msg.content, metadata: msg.metadata };
  if (buffers.length) {
    step.buffers = buffers;
  }
  into.push(JSON.parse(JSON.stringify(step)));
}

// addCell makes a cell's box: its source and an output area rendering with the manager's
// rendermime registry (which has html-manager's widget renderer).
function addCell(source, outputs) {
  const box = document.createElement('div');
  box.className = 'gn-cell';
  const pre = document.createElement('pre');
  pre.className = 'gn-source';
  pre.textContent = source;
  box.appendChild(pre);
  document.getElementById('cells').appendChild(box);
  const model = new OutputAreaModel({ trusted: true });
  const area = new OutputArea({ model, rendermime: manager.renderMime });
  Widget.attach(area, box);
  if (outputs) {
    model.fromJSON(outputs);
  }
  model.changed.connect(save);
  cells.push({ source, area });
  return cells.length - 1;
}

// save writes every cell's source and outputs to sessionStorage.
function save() {
  sessionStorage.setItem(CELLS_KEY, JSON.stringify(cells.map(c => ({ source: c.source, outputs: c.area.model.toJSON() }))));
}

window.gn = {
  // start connects; after a reload it restores every live model from the kernel (the control
  // comm's request_states) before showing the saved outputs, whose views then find their models.
  async start(kernelName = 'gptnotes') {
    const id = sessionStorage.getItem(KERNEL_KEY);
    if (id) {
      await connect(kernelName, id);
      await manager._loadFromKernel();
      for (const c of JSON.parse(sessionStorage.getItem(CELLS_KEY) || '[]')) {
        addCell(c.source, c.outputs);
      }
      status(`reconnected to kernel ${id}, ${cells.length} cells restored`);
      return { restored: cells.length, kernel: id };
    }
    await connect(kernelName);
    status(`kernel ${kernel.id} started`);
    return { restored: 0, kernel: kernel.id };
  },

  // run executes source as a new cell; its outputs go to the cell's output area as they come.
  async run(source) {
    const i = addCell(source);
    if (recording) {
      recording.push({ from: 'cell', code: source });
    }
    const future = kernel.requestExecute({ code: source, stop_on_error: true });
    cells[i].area.future = future;
    const reply = await future.done;
    save();
    return { cell: i, status: reply.content.status, executionCount: reply.content.execution_count };
  },

  text(i) { return cells[i].area.node.innerText; },

  // record starts recording the widget messages both ways, and the cells run; takeRecording
  // ends it and returns the steps in the order the page saw them.
  record() { recording = []; },
  // Before it ends, a silent empty cell: the kernel serves requests in order, so by its reply
  // the kernel has answered every widget message the front end sent before it.
  async takeRecording() {
    const r = recording;
    recording = null;
    recordingTail = r;
    await kernel.requestExecute({ code: '', silent: true, store_history: false }).done;
    recordingTail = null;
    return r;
  },

  // views counts the widget views shown at the top of the cells' output areas (views inside
  // boxes and Output widgets are parts of those). A view has a class naming its kind
  // (widget-vbox, widget-image, …); html-manager's renderer, when it cannot make one, shows an
  // error in a bare .jupyter-widgets node instead, which is not counted.
  views() {
    return [...document.querySelectorAll('#cells .jp-OutputArea-output')]
      .filter(o => !o.parentElement.closest('.jupyter-widgets') && o.querySelector('.jupyter-widgets[class*="widget-"]') && !o.querySelector('.jupyter-widgets-error-widget')).length;
  },

  async shutdown() {
    sessionStorage.clear();
    await kernel.shutdown();
  },
};
status('ready');
