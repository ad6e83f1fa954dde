// The live view: reads the server's frame stream (/ui/events) and draws one
// lane per watching client on a resourceVersion axis. No framework: frames
// arrive at most every 100 ms and are drawn at most once per animation frame.

/** Marks a lane keeps on screen. */
const MARKS_PER_LANE = 60;
/** Happenings listed. */
const NOTES_KEPT = 8;

const COUNTERS = [
  ['openWatchers', 'open watches'],
  ['watchesStarted', 'watches started'],
  ['bookmarksSent', 'bookmarks sent'],
  ['expiredSent', '410 Expired sent'],
  ['relists', 'relists (LIST after 410)'],
  ['lists', 'lists served'],
  ['eventsSent', 'watch events sent'],
  ['bytes', 'bytes sent'],
];

const state = {
  /** @type {Map<number, any>} lanes by id, each with `marks` merged by seq */
  lanes: new Map(),
  history: { latest: 0, oldest: 0, oldestByResource: {} },
  counters: {},
  more: undefined,
  /** @type {{time: string, text: string}[]} */
  notes: [],
};

/** What the page measured about itself (read by the responsiveness bench). */
const perf = { frames: 0, renders: 0, renderMsTotal: 0, renderMsMax: 0 };
window.__watchmarkUi = perf;

const $ = (id) => document.getElementById(id);
let scheduled = false;

function connect() {
  const connection = $('connection');
  const events = new EventSource('/ui/events');
  events.addEventListener('frame', (e) => {
    connection.dataset.state = 'live';
    connection.textContent = 'live';
    apply(JSON.parse(e.data));
    schedule();
  });
  events.onerror = () => {
    // EventSource reconnects by itself; the next connection starts with a snapshot.
    connection.dataset.state = 'lost';
    connection.textContent = 'reconnecting…';
  };
}

function apply(frame) {
  perf.frames++;
  if (frame.snapshot) {
    state.lanes.clear();
    state.notes = [];
  }
  for (const incoming of frame.lanes) {
    let lane = state.lanes.get(incoming.id);
    if (!lane) {
      lane = { marks: [], lastSeq: 0, changed: true };
      state.lanes.set(incoming.id, lane);
    }
    const marks = lane.marks;
    Object.assign(lane, incoming, { marks, changed: true });
    for (const m of incoming.marks) {
      if (m.seq > lane.lastSeq) {
        marks.push(m);
        lane.lastSeq = m.seq;
      }
    }
    if (marks.length > MARKS_PER_LANE) marks.splice(0, marks.length - MARKS_PER_LANE);
  }
  for (const id of frame.removed) state.lanes.delete(id);
  state.history = frame.history;
  state.counters = frame.counters;
  state.more = frame.more;
  for (const note of frame.notes) {
    state.notes.unshift({ time: new Date(note.time).toLocaleTimeString(), text: note.text });
  }
  state.notes.length = Math.min(state.notes.length, NOTES_KEPT);
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    const start = performance.now();
    render();
    const ms = performance.now() - start;
    perf.renders++;
    perf.renderMsTotal += ms;
    perf.renderMsMax = Math.max(perf.renderMsMax, ms);
  });
}

/** The axis: from the oldest thing worth showing (a stale lane, the window's edge) to the latest version. */
function domain() {
  const { latest, oldest } = state.history;
  let lo = oldest;
  for (const lane of state.lanes.values()) {
    if (lane.rv > 0) lo = Math.min(lo, lane.rv);
    if (lane.marks.length > 0) lo = Math.min(lo, lane.marks[0].rv || lo);
  }
  // Snapped to a round step with headroom, so under a stream of writes the axis moves now and
  // then (every mark restyled), not on every frame.
  const step = niceStep(Math.max(latest - lo, 10) / 8);
  return { lo: Math.max(0, Math.floor(lo / step) * step - step), hi: (Math.floor(latest / step) + 2) * step };
}

/** 1, 2 or 5 times a power of ten, at least `n`. */
function niceStep(n) {
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}

let lastDomain = '';

function render() {
  const d = domain();
  const x = (rv) => `${(((rv - d.lo) / (d.hi - d.lo)) * 100).toFixed(2)}%`;
  // Marks are placed by CSS from their --rv and the axis' --lo/--span: moving the axis is two
  // custom properties, not a style write per mark.
  const root = document.documentElement.style;
  root.setProperty('--lo', String(d.lo));
  root.setProperty('--span', String(d.hi - d.lo));
  const domainKey = `${d.lo}:${d.hi}:${JSON.stringify(state.history.oldestByResource)}`;
  const moved = domainKey !== lastDomain;
  lastDomain = domainKey;
  renderCounters();
  renderHistory(d, x);
  const container = $('lanes');
  const seen = new Set();
  for (const lane of state.lanes.values()) {
    seen.add(String(lane.id));
    let row = container.querySelector(`[data-lane-id="${lane.id}"]`);
    if (!row) {
      row = laneRow(lane);
      container.append(row);
    }
    if (lane.changed) updateLane(row, lane, x);
    else if (moved) placeLane(row, lane, x);
    lane.changed = false;
  }
  for (const row of [...container.children]) if (!seen.has(row.dataset.laneId)) row.remove();
  $('empty').hidden = state.lanes.size > 0;
  const more = state.more;
  const moreEl = $('more');
  moreEl.hidden = !more || more.lanes === 0;
  if (more && more.lanes > 0) {
    moreEl.dataset.count = String(more.lanes);
    moreEl.textContent = `+ ${more.lanes} more lanes (${more.open} watches open): ${more.events} events, ${more.bookmarks} bookmarks, ${more.expired} × 410, ${more.relists} relists, ${more.resumes} resumes`;
  }
  const notes = $('notes');
  notes.replaceChildren(
    ...state.notes.map((n) => {
      const li = document.createElement('li');
      const b = document.createElement('b');
      b.className = 'happened';
      b.textContent = n.text;
      li.append(b, ` at ${n.time}`);
      return li;
    }),
  );
}

function renderCounters() {
  const c = state.counters;
  const values = { ...c, bytes: formatBytes((c.watchBytesWritten ?? 0) + (c.responseBytesWritten ?? 0)) };
  const box = $('counters');
  if (box.children.length === 0) {
    for (const [key, label] of COUNTERS) {
      const el = document.createElement('div');
      el.className = 'counter';
      el.dataset.counter = key;
      el.innerHTML = `<b></b><span>${label}</span>`;
      box.append(el);
    }
  }
  for (const el of box.children) {
    const v = values[el.dataset.counter];
    el.firstChild.textContent = typeof v === 'number' ? v.toLocaleString('en') : (v ?? '–');
  }
}

function renderHistory(d, x) {
  const { latest, oldest } = state.history;
  const track = $('history');
  track.dataset.oldest = String(oldest);
  track.dataset.latest = String(latest);
  track.querySelector('.compacted').style.width = x(oldest);
  track.querySelector('.retained').style.left = x(oldest);
  $('axis-lo').textContent = String(Math.round(d.lo));
  $('axis-hi').textContent = String(Math.round(d.hi));
  $('history-text').textContent =
    `latest resourceVersion ${latest}; oldest a watch can start from ${oldest}: a client holding an older one gets 410 Expired and must relist`;
}

function laneRow(lane) {
  const row = document.createElement('div');
  row.className = 'lane';
  row.dataset.laneId = String(lane.id);
  row.innerHTML =
    '<div class="who"><b class="ua"></b><small class="what"></small><small class="where"></small></div>' +
    '<div class="track"><div class="compacted"></div><div class="cursor"></div><div class="marks"></div></div>' +
    '<div class="story"><div class="rv"></div><div class="steps"></div></div>';
  return row;
}

function updateLane(row, lane, x) {
  const c = lane.counts;
  const summary = `rv ${lane.rv} · ${c.events} ev · ${c.bookmarks} bm · ${c.expired} × 410 · ${c.relists} relist · ${c.resumes} resume`;
  placeLane(row, lane, x);
  updateMarks(row.querySelector('.marks'), lane.marks);
  // The rest changes rarely: rewritten only when it did.
  const key = `${lane.open}|${summary}|${lane.story.join('|')}`;
  if (row.dataset.key === key) return;
  row.dataset.key = key;
  Object.assign(row.dataset, {
    userAgent: lane.userAgent,
    resource: lane.resource,
    bookmarks: String(lane.bookmarks),
    open: String(lane.open),
    rv: String(lane.rv),
    expired: String(lane.counts.expired),
    relists: String(lane.counts.relists),
    resumes: String(lane.counts.resumes),
    bookmarksSeen: String(lane.counts.bookmarks),
  });
  const ua = row.querySelector('.ua');
  ua.textContent = lane.userAgent || '(no user agent)';
  ua.title = lane.userAgent;
  const selectors = [lane.labelSelector, lane.fieldSelector].filter(Boolean).join(', ');
  row.querySelector('.what').textContent =
    `${lane.resource}${lane.namespace ? ` in ${lane.namespace}` : ''}${selectors ? ` (${selectors})` : ''}`;
  const badge = document.createElement('span');
  badge.className = `badge ${lane.bookmarks ? 'on' : 'off'}`;
  badge.textContent = lane.bookmarks ? 'bookmarks' : 'no bookmarks';
  row
    .querySelector('.where')
    .replaceChildren(
      `${lane.address} · ${lane.open > 0 ? `${lane.open} open` : 'reconnecting / gone'}`,
      badge,
    );
  row.querySelector('.rv').textContent = summary;
  const steps = row.querySelector('.steps');
  steps.replaceChildren(
    ...lane.story.map((text, i) => {
      const s = document.createElement('span');
      s.textContent = (i > 0 ? ' → ' : '') + text;
      if (i === lane.story.length - 1) s.className = 'last';
      return s;
    }),
  );
  steps.dataset.story = lane.story.join(' | ');
}

/**
 * Places what is not a mark on the axis: the compacted band and the lane's
 * resourceVersion, marked stale once it is older than the band's edge (a
 * reconnect from it will get 410).
 */
function placeLane(row, lane, x) {
  const oldest = oldestFor(lane);
  const stale = lane.rv > 0 && lane.rv < oldest;
  row.dataset.stale = String(stale);
  row.querySelector('.compacted').style.width = x(oldest);
  const cursor = row.querySelector('.cursor');
  cursor.style.left = x(lane.rv);
  cursor.classList.toggle('stale', stale);
  cursor.title = `resourceVersion ${lane.rv}${stale ? ' (compacted away: resuming from it answers 410)' : ''}`;
}

/**
 * Keeps one element per mark, in order: marks that scrolled off go from the
 * front, new ones are appended; nothing else is touched. Positions come from
 * CSS (--rv against the axis' --lo/--span); the page's CSP forbids style
 * attributes, so --rv is set through CSSOM.
 */
function updateMarks(box, marks) {
  const firstSeq = marks.length > 0 ? marks[0].seq : Number.POSITIVE_INFINITY;
  while (box.firstChild && Number(box.firstChild.dataset.seq) < firstSeq) box.firstChild.remove();
  const lastSeq = box.lastChild ? Number(box.lastChild.dataset.seq) : 0;
  for (const m of marks) {
    if (m.seq <= lastSeq) continue;
    const el = document.createElement('i');
    el.className = `mark ${m.kind}`;
    el.dataset.seq = String(m.seq);
    el.dataset.mark = m.kind;
    el.dataset.rv = String(m.rv);
    el.style.setProperty('--rv', String(m.rv));
    el.title = `${m.kind} @ ${m.rv}`;
    box.append(el);
  }
}

function oldestFor(lane) {
  return state.history.oldestByResource[lane.resource] ?? state.history.oldest;
}

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

async function inject(button, path) {
  button.disabled = true;
  try {
    const res = await fetch(path, { method: 'POST', headers: { 'X-Watchmark-UI': '1' } });
    if (!res.ok) {
      const body = await res.json().catch(() => ({}));
      state.notes.unshift({
        time: new Date().toLocaleTimeString(),
        text: `failed: ${body.message ?? res.status}`,
      });
      schedule();
    }
  } finally {
    button.disabled = false;
  }
}

$('compact').addEventListener('click', (e) => inject(e.currentTarget, '/ui/actions/compact'));
$('drop').addEventListener('click', (e) => inject(e.currentTarget, '/ui/actions/drop-watches'));
connect();
