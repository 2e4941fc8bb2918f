// The status page of `status-store run` (docs/http-service.md#the-status-page). It loads the view once
// (GET /status-store/v1/overview), then follows the event stream (GET /status-store/v1/events): one
// event per status record the service reads, the same JSON `status-store watch --json` prints. When the
// stream reconnects (the service restarted) it loads the view again. Names and traces are anyone's
// bytes: they are only ever set as text (textContent, title, dataset), never parsed as HTML.
'use strict';
(() => {
  const STATES = ['RUNNING', 'PAUSED', 'STOPPED', 'UNASSIGNED', 'RESTARTING', 'FAILED'];
  const FILTERS = [...STATES, 'degraded', 'flapping'];
  const $ = (id) => document.getElementById(id);
  const connectors = new Map();  // name -> {name, state, worker_id, generation, trace, last_change_ms, flapping_since_ms, tasks: Map}
  const view = { filter: null, name: '', sort: 'failed' };
  const stats = { loadMs: null, events: 0, applied: [], snapshots: 0 };
  window.statusStore = stats;  // what the browser tests read
  let pending = null;          // events that arrive while a snapshot loads
  let snapshotSeq = 0;         // only the newest load counts
  let renderTimer = null;
  let detail = null;           // {name, task} shown in the side panel (task null: the connector)

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    if (props) for (const [k, v] of Object.entries(props)) {
      if (k === 'dataset') Object.assign(node.dataset, v); else node[k] = v;
    }
    for (const c of children) node.append(c);  // strings become text nodes
    return node;
  }
  const iso = (ms) => (ms == null ? '' : new Date(ms).toISOString());
  function ago(ms) {
    if (ms == null) return '';
    const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
    if (s < 60) return s + ' s ago';
    if (s < 3600) return Math.round(s / 60) + ' min ago';
    if (s < 86400) return Math.round(s / 3600) + ' h ago';
    return Math.round(s / 86400) + ' d ago';
  }
  const firstLine = (t) => (t == null ? null : String(t).split('\n', 1)[0]);

  // ---- the model -----------------------------------------------------------------------------------
  function fromSnapshot(c) {
    const tasks = new Map();
    for (const t of c.tasks) tasks.set(t.id, { ...t });
    return { ...c, tasks, row: null, dirty: true };
  }
  function entry(name) {
    let c = connectors.get(name);
    if (!c) {
      c = { name, state: null, tasks: new Map(), row: null, dirty: true };
      connectors.set(name, c);
    }
    return c;
  }
  // The history's rule: a record is a transition when state, worker or generation differ.
  function applyStatus(target, ev) {
    if (target.state !== ev.state || target.worker_id !== ev.worker_id || target.generation !== ev.generation)
      target.last_change_ms = ev.timestamp_ms != null ? ev.timestamp_ms : Date.now();
    target.state = ev.state;
    target.worker_id = ev.worker_id;
    target.generation = ev.generation;
    target.trace = firstLine(ev.trace);
    target.fullTrace = ev.trace;
  }
  function applyFlapping(target, ev) {
    if (ev.flapping === 'started') target.flapping_since_ms = ev.timestamp_ms != null ? ev.timestamp_ms : Date.now();
    if (ev.flapping === 'stopped') target.flapping_since_ms = null;
  }
  function applyEvent(ev) {
    if (ev.type === 'topic' || ev.stale) return;  // topics are not shown; a stale UNASSIGNED is not the task's state
    const c = ev.type === 'connector' && ev.deleted ? connectors.get(ev.connector) : entry(ev.connector);
    if (!c) return;
    if (ev.type === 'connector') {
      if (ev.deleted) {  // a connector's tombstone takes its tasks with it, as in the view
        connectors.delete(ev.connector);
        if (c.row) c.row.remove();
      } else {
        if (ev.state) applyStatus(c, ev);
        applyFlapping(c, ev);
      }
    } else if (ev.deleted) {
      c.tasks.delete(ev.task);
    } else {
      let t = c.tasks.get(ev.task);
      if (!t) c.tasks.set(ev.task, (t = { id: ev.task }));
      if (ev.state) applyStatus(t, ev);
      applyFlapping(t, ev);
    }
    c.dirty = true;
    stats.applied.push({ key: ev.key, state: ev.state || null, record_ms: ev.timestamp_ms, received_ms: Date.now() });
    if (stats.applied.length > 200) stats.applied.shift();
    if (detail && detail.name === ev.connector && (detail.task === null || detail.task === ev.task)) showDetail(detail);
  }

  // ---- what a connector shows ------------------------------------------------------------------------
  const shown = (c) => c.state != null;  // as the overview: connectors with a status of their own
  const failedTasks = (c) => { let n = 0; for (const t of c.tasks.values()) if (t.state === 'FAILED') n++; return n; };
  function hasState(c, s) {
    if (c.state === s) return true;
    for (const t of c.tasks.values()) if (t.state === s) return true;
    return false;
  }
  const isDegraded = (c) => c.state === 'RUNNING' && failedTasks(c) > 0;
  function isFlapping(c) {
    if (c.flapping_since_ms != null) return true;
    for (const t of c.tasks.values()) if (t.flapping_since_ms != null) return true;
    return false;
  }
  function lastChange(c) {
    let m = c.last_change_ms || 0;
    for (const t of c.tasks.values()) if ((t.last_change_ms || 0) > m) m = t.last_change_ms;
    return m;
  }
  function matches(c, filter) {
    if (filter === 'degraded') return isDegraded(c);
    if (filter === 'flapping') return isFlapping(c);
    return hasState(c, filter);
  }
  const failedRank = (c) => failedTasks(c) + (c.state === 'FAILED' ? 1 : 0);
  const byName = new Intl.Collator(undefined, { numeric: true }).compare;  // connector-2 before connector-10
  const SORTS = {
    failed: (a, b) => failedRank(b) - failedRank(a) || byName(a.name, b.name),
    name: (a, b) => byName(a.name, b.name),
    change: (a, b) => lastChange(b) - lastChange(a) || byName(a.name, b.name),
  };

  // ---- rendering ----------------------------------------------------------------------------------------
  function taskCell(t) {
    const cell = el('button', {
      type: 'button', className: 'task' + (t.flapping_since_ms != null ? ' flapping' : ''), textContent: String(t.id),
      title: `task ${t.id}: ${t.state} on ${t.worker_id} (generation ${t.generation})` + (t.trace ? '\n' + t.trace : ''),
      dataset: { state: t.state || 'UNASSIGNED', task: String(t.id) },
    });
    return cell;
  }
  function buildRow(c) {
    const ids = [...c.tasks.keys()].sort((a, b) => a - b);
    const state = el('span', { className: 'badge', dataset: { state: c.state || 'UNASSIGNED' } }, c.state || '—');
    const stateCell = el('td', null, state);
    if (isDegraded(c)) stateCell.append(' ', el('span', { className: 'badge', dataset: { state: 'degraded' } }, 'degraded'));
    if (c.flapping_since_ms != null) stateCell.append(el('span', { className: 'flap-mark', title: 'flapping since ' + iso(c.flapping_since_ms) }, '~'));
    const changed = lastChange(c);
    const row = el('tr', { dataset: { name: c.name } },
      el('td', null, el('button', { type: 'button', className: 'name', textContent: c.name, title: c.trace || '' })),
      stateCell,
      el('td', null, el('div', { className: 'tasks' }, ...ids.map((id) => taskCell(c.tasks.get(id))))),
      el('td', { className: 'num' }, String(failedTasks(c))),
      el('td', { title: changed ? iso(changed) : '' }, changed ? ago(changed) : ''));
    row.dataset.failed = String(failedTasks(c));
    return row;
  }
  function renderCounts(list) {
    const nav = $('counts');
    if (!nav.childElementCount) {
      for (const f of FILTERS) {
        const b = el('button', { type: 'button', className: 'count', dataset: { state: f, filter: f } },
          f, el('span', { className: 'n' }), el('span', { className: 'sub' }));
        b.setAttribute('aria-pressed', 'false');
        nav.append(b);
      }
    }
    const conn = Object.fromEntries(FILTERS.map((f) => [f, 0]));
    const tasks = Object.fromEntries(STATES.map((s) => [s, 0]));
    for (const c of list) {
      for (const f of FILTERS) if (matches(c, f)) conn[f]++;
      for (const t of c.tasks.values()) if (t.state in tasks) tasks[t.state]++;
    }
    for (const b of nav.children) {
      const f = b.dataset.filter;
      b.querySelector('.n').textContent = String(conn[f]);
      b.querySelector('.sub').textContent = f in tasks ? `(${tasks[f]} tasks)` : '';
      b.setAttribute('aria-pressed', String(view.filter === f));
    }
  }
  function render() {
    renderTimer = null;
    const all = [...connectors.values()].filter(shown);
    renderCounts(all);
    const needle = view.name.toLowerCase();
    const rows = all
      .filter((c) => (!view.filter || matches(c, view.filter)) && (!needle || c.name.toLowerCase().includes(needle)))
      .sort(SORTS[view.sort]);
    for (const c of rows) if (c.dirty || !c.row) { c.row = buildRow(c); c.dirty = false; }
    $('rows').replaceChildren(...rows.map((c) => c.row));
    $('shown').textContent = `${rows.length} of ${all.length} connectors`;
    for (const b of document.querySelectorAll('button.sort'))
      if (b.dataset.sort === view.sort) b.setAttribute('aria-sort', 'descending'); else b.removeAttribute('aria-sort');
    stats.renderedAt = Date.now();
    for (const a of stats.applied) if (a.rendered_ms == null) a.rendered_ms = stats.renderedAt;
  }
  function scheduleRender() { if (!renderTimer) renderTimer = setTimeout(render, 25); }

  // ---- the detail panel ---------------------------------------------------------------------------------
  function field(dl, name, value) { dl.append(el('dt', null, name), el('dd', null, value == null ? '' : String(value))); }
  async function getJson(url) {
    const r = await fetch(url, { cache: 'no-store', credentials: 'same-origin' });
    if (!r.ok) throw new Error(`${url}: ${r.status}`);
    return r.json();
  }
  async function showDetail(which) {
    detail = which;
    const c = connectors.get(which.name);
    const t = c && which.task !== null ? c.tasks.get(which.task) : c;
    const enc = encodeURIComponent(which.name);
    const what = which.task === null ? `connector ${which.name}` : `task ${which.name}-${which.task}`;
    $('detail').hidden = false;
    $('detail-title').textContent = what;
    const dl = $('detail-fields');
    dl.replaceChildren();
    if (t) {
      field(dl, 'state', t.state);
      field(dl, 'worker id', t.worker_id);
      field(dl, 'generation', t.generation);
      field(dl, 'last change', t.last_change_ms != null ? `${iso(t.last_change_ms)} (${ago(t.last_change_ms)})` : 'not in the history');
      if (t.flapping_since_ms != null) field(dl, 'flapping since', iso(t.flapping_since_ms));
    } else {
      field(dl, 'state', 'no status');
    }
    const base = which.task === null ? `/connectors/${enc}/status` : `/connectors/${enc}/tasks/${which.task}/status`;
    const hist = which.task === null ? `/status-store/v1/connectors/${enc}/history` : `/status-store/v1/connectors/${enc}/tasks/${which.task}/history`;
    const [status, history] = await Promise.all([getJson(base).catch(() => null), getJson(hist).catch(() => null)]);
    if (detail !== which) return;  // another one was opened meanwhile
    const trace = status ? (which.task === null ? status.connector && status.connector.trace : status.trace) : null;
    $('detail-trace').hidden = !trace;
    $('detail-trace-summary').textContent = trace ? firstLine(trace) : '';
    $('detail-trace-text').textContent = trace || '';
    const ol = $('detail-history');
    ol.replaceChildren();
    const transitions = history ? history.transitions : [];
    for (const h of transitions) {
      const li = el('li', { dataset: { state: h.state } },
        el('time', { dateTime: h.timestamp }, h.timestamp),
        el('span', { className: 'badge', dataset: { state: h.state } }, h.state),
        ` on ${h.worker_id}, generation ${h.generation}` + (h.written_by_this_store ? ' (written by this store)' : ''));
      if (h.trace) li.append(el('div', { className: 'why' }, h.trace));
      ol.append(li);
    }
    if (!transitions.length) ol.append(el('li', null, 'no transition kept'));
    $('detail-reach').textContent = history && history.reaches_back_to ? `(oldest first; the history reaches back to ${history.reaches_back_to})` : '';
  }
  function hideDetail() { detail = null; $('detail').hidden = true; }

  // ---- loading and following ------------------------------------------------------------------------------
  function banner(text) { $('banner').hidden = !text; $('banner').textContent = text || ''; }
  async function loadSnapshot() {
    const seq = ++snapshotSeq;
    pending = pending || [];  // kept across retries: replaying an event the snapshot already holds changes nothing
    try {
      const r = await fetch('/status-store/v1/overview', { cache: 'no-store', credentials: 'same-origin' });
      if (r.status === 503) throw new Error('the service is starting: the status topic is being replayed');
      if (!r.ok) throw new Error(`the overview answered ${r.status}`);
      const data = await r.json();
      if (seq !== snapshotSeq) return;
      for (const c of connectors.values()) if (c.row) c.row.remove();
      connectors.clear();
      for (const c of data.connectors) connectors.set(c.name, fromSnapshot(c));
      const waiting = pending;
      pending = null;
      for (const ev of waiting) applyEvent(ev);  // read after the snapshot was asked for: newer or the same
      stats.snapshots++;
      banner('');
      render();
      if (stats.loadMs == null) {
        // Measured once the first frame with every row has been laid out and painted, from navigation start.
        requestAnimationFrame(() => setTimeout(() => {
          stats.loadMs = performance.now();
          document.documentElement.dataset.ready = '1';
        }, 0));
      }
      if (detail) showDetail(detail);
    } catch (e) {
      if (seq !== snapshotSeq) return;
      banner(String(e.message || e));
      setTimeout(() => { if (seq === snapshotSeq) loadSnapshot(); }, 1000);
    }
  }
  function follow() {
    const es = new EventSource('/status-store/v1/events');
    es.onopen = () => {
      $('live').dataset.live = 'live';
      $('live').textContent = 'live';
      loadSnapshot();  // what happened while no stream was open
    };
    es.addEventListener('status', (e) => {
      stats.events++;
      const ev = JSON.parse(e.data);
      if (pending) pending.push(ev); else { applyEvent(ev); scheduleRender(); }
    });
    es.onerror = () => {
      $('live').dataset.live = 'reconnecting';
      $('live').textContent = 'reconnecting';
      // The browser retries a dropped stream by itself; one refused (a 503 while the service starts,
      // a 401) is closed for good: open a new one.
      if (es.readyState === EventSource.CLOSED) {
        banner('waiting for the service: it is starting (replaying the status topic) or not reachable');
        setTimeout(follow, 1000);
      }
    };
  }
  async function pollStore() {
    try {
      const h = await fetch('/health', { cache: 'no-store' });
      const body = await h.json();
      $('health').dataset.health = body.status;
      $('health').textContent = 'health: ' + body.status;
      $('health').title = body.message || '';
      const m = (await getJson('/status-store/v1/metrics')).metrics;
      $('store').textContent = `success ${m['status-update-success-total']} · retry ${m['status-update-retry-total']}` +
        ` · failure ${m['status-update-failure-total']} · oldest unacknowledged ${m['status-update-oldest-unacked-age-ms']} ms`;
    } catch (e) {
      $('health').dataset.health = 'unreachable';
      $('health').textContent = 'health: unreachable';
    }
    setTimeout(pollStore, 2000);
  }

  // ---- controls ------------------------------------------------------------------------------------------
  function init() {
    $('counts').addEventListener('click', (e) => {
      const b = e.target.closest('button.count');
      if (!b) return;
      view.filter = view.filter === b.dataset.filter ? null : b.dataset.filter;
      render();
    });
    $('name-filter').addEventListener('input', (e) => { view.name = e.target.value; render(); });
    $('sort').addEventListener('change', (e) => { view.sort = e.target.value; render(); });
    for (const b of document.querySelectorAll('button.sort'))
      b.addEventListener('click', () => { view.sort = b.dataset.sort; $('sort').value = view.sort; render(); });
    $('rows').addEventListener('click', (e) => {
      const row = e.target.closest('tr');
      if (!row) return;
      const task = e.target.closest('button.task');
      if (task) showDetail({ name: row.dataset.name, task: Number(task.dataset.task) });
      else if (e.target.closest('button.name')) showDetail({ name: row.dataset.name, task: null });
    });
    $('detail-close').addEventListener('click', hideDetail);
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape') hideDetail(); });
    setInterval(() => { for (const c of connectors.values()) c.dirty = true; scheduleRender(); }, 30000);  // "… ago"
    follow();  // its first open loads the view
    pollStore();
  }
  init();
})();
