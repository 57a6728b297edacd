// The embed page: a saved notebook's widgets drawn from its saved state alone, with no kernel, by
// html-manager's embed code (renderWidgets, what ipywidgets' HTML embedding and nbconvert's
// exports load). The test drives it through window.gnEmbed:
//
//   await gnEmbed.render(notebook)   put the notebook's state and its cells' widget views into
//                                    the page as script tags, render them; resolves to the
//                                    number of view tags found
//   gnEmbed.views()                  how many of them now hold a rendered view
import '@jupyter-widgets/controls/css/widgets.css';
import { HTMLManager } from '@jupyter-widgets/html-manager';
import { renderWidgets } from '@jupyter-widgets/html-manager/lib/libembed.js';

const STATE = 'application/vnd.jupyter.widget-state+json';
const VIEW = 'application/vnd.jupyter.widget-view+json';

// scriptTag is a <script type=type> holding value as JSON, as an HTML export writes it.
function scriptTag(type, value) {
  const s = document.createElement('script');
  s.type = type;
  s.textContent = JSON.stringify(value);
  return s;
}

window.gnEmbed = {
  async render(notebook) {
    const root = document.getElementById('notebook');
    root.replaceChildren();
    const state = (notebook.metadata.widgets || {})[STATE];
    if (!state) {
      return 0;
    }
    root.appendChild(scriptTag(STATE, state));
    let tags = 0;
    for (const cell of notebook.cells) {
      for (const out of cell.outputs || []) {
        if (out.data && out.data[VIEW]) {
          const box = document.createElement('div');
          box.className = 'gn-output';
          box.appendChild(scriptTag(VIEW, out.data[VIEW]));
          root.appendChild(box);
          tags++;
        }
      }
    }
    await renderWidgets(() => new HTMLManager(), root);
    return tags;
  },

  views() {
    // A view has a class naming its kind (widget-vbox, …); an error view has none.
    return [...document.querySelectorAll('#notebook .widget-subarea')]
      .filter(s => s.querySelector('.jupyter-widgets[class*="widget-"]') && !s.querySelector('.jupyter-widgets-error-widget')).length;
  },
};
