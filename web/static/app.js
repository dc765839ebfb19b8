// tengen browser board. Draws what the server says and forwards clicks; every
// rule question (legality, forbidden points, results) is answered by the server.
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';
const CELL = 34;
const PAD = 34;

const ui = {
  game: null,       // last state from GET /api/games/{id}
  marks: [],        // points marked for a proposal (step propose)
  pollTimer: null,
  explained: '',    // "board:point" shown in the explanation box
  actAs: null,      // the human player resigning or offering a draw out of turn
};

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const text = await res.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { data = { error: text || res.statusText }; }
  if (!res.ok) throw new Error((data && data.error) || res.statusText);
  return data;
}

function showError(msg) {
  $('error').textContent = msg || '';
}

function letter(x) { return String.fromCharCode(97 + x); }
function pointName(x, y, size) { return letter(x) + (size - y); }
function parsePoint(name, size) {
  return { x: name.charCodeAt(0) - 97, y: size - parseInt(name.slice(1), 10) };
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function gameUrl(sub) {
  return '/api/games/' + ui.game.id + (sub ? '/' + sub : '');
}

// ---- drawing --------------------------------------------------------------

function starPoints(size) {
  if (size < 9) return [];
  const c = (size - 1) / 2;
  const pts = Number.isInteger(c) ? [[c, c]] : [];
  if (size >= 13) {
    const a = 3, b = size - 4;
    pts.push([a, a], [a, b], [b, a], [b, b]);
  }
  return pts;
}

function drawBoard(bi) {
  const g = ui.game;
  const size = g.config.size;
  const board = g.boards[bi];
  const span = CELL * (size - 1);
  const w = span + 2 * PAD;
  const svg = el('svg', { width: w, height: w, viewBox: `0 0 ${w} ${w}`, class: 'board',
                          id: 'board' + bi, 'data-board': bi });
  el('rect', { x: 0, y: 0, width: w, height: w, class: 'wood' }, svg);
  const X = (x) => PAD + x * CELL;
  for (let i = 0; i < size; i++) {
    el('line', { x1: X(0), y1: X(i), x2: X(size - 1), y2: X(i), class: 'grid' }, svg);
    el('line', { x1: X(i), y1: X(0), x2: X(i), y2: X(size - 1), class: 'grid' }, svg);
    const col = el('text', { x: X(i), y: w - 10, class: 'coord' }, svg);
    col.textContent = letter(i);
    const row = el('text', { x: 12, y: X(i) + 4, class: 'coord' }, svg);
    row.textContent = String(size - i);
  }
  for (const [x, y] of starPoints(size)) el('circle', { cx: X(x), cy: X(y), r: 3.5, class: 'star' }, svg);

  const turn = g.turn;
  const human = turn.step !== 'over' && turn.human;
  // Where an opening stone may go, when the opening restricts it.
  if (human && turn.legal && turn.legal[bi]) {
    const empties = size * size - board.stones.length;
    if (turn.legal[bi].length < empties) {
      for (const p of turn.legal[bi]) {
        const q = parsePoint(p, size);
        el('circle', { cx: X(q.x), cy: X(q.y), r: 4, class: 'legal', 'data-point': p }, svg);
      }
    }
  }
  const five = new Set((g.result && g.result.five) || []);
  const showNumbers = $('opt-numbers').checked;
  for (const s of board.stones) {
    const c = el('circle', { cx: X(s.x), cy: X(s.y), r: CELL * 0.46,
                             class: 'stone ' + s.color + (five.has(s.point) ? ' five' : ''),
                             'data-point': s.point, 'data-move': s.move }, svg);
    const title = el('title', {}, c);
    title.textContent = `${s.move}. ${s.point}`;
    if (showNumbers) {
      const last = s.point === board.last ? ' last-num' : '';
      const t = el('text', { x: X(s.x), y: X(s.y) + 4.5, class: 'num ' + s.color + last }, svg);
      t.textContent = String(s.move);
    }
  }
  if (board.last) {
    const q = parsePoint(board.last, size);
    el('rect', { x: X(q.x) - 4, y: X(q.y) + CELL * 0.22, width: 8, height: 3, class: 'last',
                 'data-point': board.last }, svg);
  }
  if ($('opt-forbidden').checked) {
    for (const f of g.forbidden) {
      if (f.board !== bi) continue;
      const grp = el('g', { class: 'forbidden', 'data-point': f.point, 'data-kind': f.kind }, svg);
      const d = CELL * 0.22;
      el('line', { x1: X(f.x) - d, y1: X(f.y) - d, x2: X(f.x) + d, y2: X(f.y) + d }, grp);
      el('line', { x1: X(f.x) - d, y1: X(f.y) + d, x2: X(f.x) + d, y2: X(f.y) - d }, grp);
    }
  }
  for (const p of turn.proposals || []) {
    const q = parsePoint(p, size);
    el('circle', { cx: X(q.x), cy: X(q.y), r: CELL * 0.4, class: 'proposal', 'data-point': p }, svg);
  }
  for (const p of ui.marks) {
    const q = parsePoint(p, size);
    el('circle', { cx: X(q.x), cy: X(q.y), r: CELL * 0.4, class: 'mark', 'data-point': p }, svg);
  }
  if (g.result && g.result.point && g.result.result !== 'ongoing' && (g.result.board || 1) - 1 === bi) {
    const q = parsePoint(g.result.point, size);
    el('circle', { cx: X(q.x), cy: X(q.y), r: CELL * 0.5, class: 'decisive' }, svg);
  }
  // Click targets on top: one square per intersection.
  const forb = new Map(g.forbidden.filter((f) => f.board === bi).map((f) => [f.point, f.kind]));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p = pointName(x, y, size);
      const hit = el('rect', { x: X(x) - CELL / 2, y: X(y) - CELL / 2, width: CELL, height: CELL,
                               class: 'hit', 'data-point': p }, svg);
      hit.addEventListener('click', (ev) => onPointClick(bi, p, ev));
      if (forb.has(p)) {
        const t = el('title', {}, hit);
        t.textContent = `${p}: ${forb.get(p)} (forbidden for black)`;
        hit.addEventListener('mouseenter', () => explain(bi, p));
      }
    }
  }
  return svg;
}

function drawBoards() {
  const box = $('boards');
  box.textContent = '';
  if (!ui.game) return;
  box.classList.toggle('dual', ui.game.boards.length > 1);
  ui.game.boards.forEach((_, bi) => {
    const wrap = document.createElement('div');
    wrap.className = 'board-wrap';
    if (ui.game.boards.length > 1) {
      const h = document.createElement('div');
      h.className = 'board-title';
      h.textContent = 'board ' + (bi + 1);
      wrap.appendChild(h);
    }
    wrap.appendChild(drawBoard(bi));
    box.appendChild(wrap);
  });
}

// ---- panels ---------------------------------------------------------------

function playerLabel(i) {
  const p = ui.game.players[i];
  return `${i === 0 ? 'first' : 'second'} player (${p.color}, ${p.kind})`;
}

function renderActions() {
  const g = ui.game;
  const t = g.turn;
  const over = t.step === 'over';
  const allowed = new Set(over ? [] : t.allowed);
  const human = !over && t.human;
  const show = (id, on) => { $(id).hidden = !on; };
  show('btn-swap', human && allowed.has('swap'));
  show('btn-noswap', human && allowed.has('noswap'));
  $('btn-swap').textContent = t.step === 'swap2' ? 'Take black' : 'Swap colours';
  $('btn-noswap').textContent = t.step === 'swap2' ? 'Take white' : 'Keep colours';
  show('declare-box', human && allowed.has('declare'));
  if (human && allowed.has('declare')) {
    $('declare-n').min = t.declare_min;
    $('declare-n').max = t.declare_max;
  }
  const proposing = human && allowed.has('propose');
  show('propose-box', proposing);
  show('propose-mode-label', proposing && t.step !== 'propose');
  if (!proposing) ui.marks = [];
  $('propose-text').textContent = proposing
    ? `mark ${t.propose} point${t.propose === 1 ? '' : 's'} on the board (${ui.marks.length} marked)` : '';
  show('btn-pass', human && allowed.has('pass'));
  show('btn-claim', human && allowed.has('claim'));
  // While the engine is to act, its human opponent may still resign or offer a draw.
  const waiting = !over && !t.human ? g.players.findIndex((p) => p.kind === 'human') : -1;
  ui.actAs = waiting >= 0 ? waiting : null;
  show('btn-resign', (human && allowed.has('resign')) || waiting >= 0);
  show('btn-draw', (human && allowed.has('draw')) || waiting >= 0);
  $('btn-draw').textContent = t.draw_offer >= 0 && t.draw_offer !== t.player ? 'Accept draw' : 'Offer draw';
  $('btn-undo').disabled = g.history.length === 0;
  $('btn-redo').disabled = g.redo === 0;

  let text;
  if (over) text = 'Game over.';
  else if (!human) text = `Engine to act: ${playerLabel(t.player)}.`;
  else if (t.step === 'choose') text = `${playerLabel(t.player)}: click one of the offered 5th moves.`;
  else if (t.step === 'propose') text = `${playerLabel(t.player)}: mark the 5th moves, then Propose.`;
  else if (allowed.has('place')) text = `${playerLabel(t.player)}: click to place ${t.stone} ${t.move}.`;
  else text = `${playerLabel(t.player)} to decide.`;
  $('turn-text').textContent = text;
}

function fmtScore(info) {
  if (info.mate > 0) return `win in ${info.mate}`;
  if (info.mate < 0) return `loss in ${-info.mate}`;
  return (info.score > 0 ? '+' : '') + info.score;
}

function renderEngine() {
  const e = ui.game.engine;
  $('engine-state').textContent = e.thinking ? 'thinking…' : e.error ? 'stopped' : 'idle';
  $('engine-state').className = e.thinking ? 'thinking' : '';
  const i = e.info;
  let s = '';
  if (i) {
    s = `depth ${i.depth}/${i.seldepth}  score ${fmtScore(i)} (for ${i.side})  ` +
        `nodes ${i.nodes}  ${Math.round(i.nps / 1000)}k n/s\npv ${i.pv.join(' ')}`;
  }
  if (e.error) s += (s ? '\n' : '') + 'engine: ' + e.error;
  $('engine-info').textContent = s;
}

function renderMoves() {
  const ol = $('moves');
  ol.textContent = '';
  for (const h of ui.game.history) {
    const li = document.createElement('li');
    li.textContent = `${h.action}`;
    li.className = 'p' + h.player;
    li.title = playerLabel(h.player).replace(/ \(.*/, '');
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function renderRecord() {
  for (const f of ['tgn', 'psq', 'sgf']) {
    const a = $('dl-' + f);
    a.href = gameUrl('record?format=' + f);
    a.setAttribute('download', `tengen-${ui.game.id}.${f}`);
  }
}

function render() {
  const g = ui.game;
  if (!g) return;
  $('status').textContent = g.status;
  $('status').className = g.turn.step === 'over' ? 'over' : '';
  drawBoards();
  renderActions();
  renderEngine();
  renderMoves();
  renderRecord();
  schedulePoll();
}

// ---- talking to the server ------------------------------------------------

function setGame(state) {
  const changed = !ui.game || ui.game.version !== state.version || ui.game.id !== state.id;
  ui.game = state;
  if (changed) ui.explained = '';
  if (location.hash !== '#game=' + state.id) history.replaceState(null, '', '#game=' + state.id);
  render();
}

function schedulePoll() {
  clearTimeout(ui.pollTimer);
  const g = ui.game;
  const waiting = g && (g.engine.thinking || (g.turn.step !== 'over' && !g.turn.human && !g.engine.error));
  ui.pollTimer = setTimeout(refresh, waiting ? 300 : 3000);
}

async function refresh() {
  if (!ui.game) return;
  try {
    const s = await api('GET', gameUrl());
    if (s.version !== ui.game.version || s.engine.thinking || ui.game.engine.thinking) setGame(s);
    else schedulePoll();
  } catch (e) {
    showError(e.message);
  }
}

async function send(action) {
  if (!ui.game) return;
  try {
    setGame(await api('POST', gameUrl('actions'), action));
    showError('');
  } catch (e) {
    showError(e.message);
  }
}

async function explain(bi, p) {
  const key = bi + ':' + p;
  if (!ui.game || ui.explained === key) return;
  ui.explained = key;
  try {
    const r = await api('GET', gameUrl(`explain?point=${p}&board=${bi}`));
    $('explain').textContent = `${r.point}: ${r.kind}${r.forbidden ? ' (forbidden for black)' : ''}\n` + (r.text || '');
  } catch (e) {
    $('explain').textContent = e.message;
  }
}

function onPointClick(bi, p, ev) {
  const g = ui.game;
  if (!g) return;
  if (ev.shiftKey || ev.altKey || ev.ctrlKey || ev.metaKey) {
    ui.explained = '';
    explain(bi, p);
    return;
  }
  const t = g.turn;
  if (t.step === 'over') return showError('the game is over');
  if (!t.human) return showError('the engine is to act; wait for it');
  if (t.step === 'propose' || (t.allowed.includes('propose') && $('propose-mode').checked)) {
    const i = ui.marks.indexOf(p);
    if (i >= 0) ui.marks.splice(i, 1);
    else if (ui.marks.length < t.propose) ui.marks.push(p);
    else return showError(`${t.propose} points are marked already; click one to unmark it`);
    showError('');
    return render();
  }
  if (t.step === 'choose') return send({ type: 'choose', point: p });
  if (t.allowed.includes('place')) {
    const a = { type: 'place', point: p };
    if (g.boards.length > 1) a.board = bi;
    return send(a);
  }
  showError('no stone is asked for now: use the buttons');
}

async function newGame(ev) {
  ev.preventDefault();
  const cfg = {
    rule: $('cfg-rule').value,
    opening: $('cfg-opening').value,
    size: parseInt($('cfg-size').value, 10),
    forbidden: $('cfg-forbidden').value,
    black: $('cfg-black').value,
    white: $('cfg-white').value,
    engine_ms: parseInt($('cfg-engine-ms').value, 10),
  };
  if (cfg.opening === 'designated') cfg.designated = $('cfg-designated').value;
  try {
    ui.marks = [];
    $('explain').textContent = '';
    setGame(await api('POST', '/api/games', cfg));
    showError('');
  } catch (e) {
    showError(e.message);
  }
}

async function undoRedo(which) {
  try {
    setGame(await api('POST', gameUrl(which), {}));
    showError('');
  } catch (e) {
    showError(e.message);
  }
}

async function upload(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  const text = await file.text();
  try {
    if (!ui.game) setGame(await api('POST', '/api/games', { black: 'human', white: 'human' }));
    setGame(await api('POST', gameUrl('record'), { text, filename: file.name }));
    showError('');
  } catch (e) {
    showError(e.message);
  }
  ev.target.value = '';
}

function fillSelect(id, values, chosen) {
  const s = $(id);
  s.textContent = '';
  for (const v of values) {
    const o = document.createElement('option');
    o.value = o.textContent = v;
    if (v === chosen) o.selected = true;
    s.appendChild(o);
  }
}

function syncDesignated() {
  $('cfg-designated-label').hidden = $('cfg-opening').value !== 'designated';
}

async function init() {
  $('new-game').addEventListener('submit', newGame);
  $('btn-undo').addEventListener('click', () => undoRedo('undo'));
  $('btn-redo').addEventListener('click', () => undoRedo('redo'));
  for (const b of document.querySelectorAll('#actions button[data-act]'))
    b.addEventListener('click', () => {
      const a = { type: b.dataset.act };
      if (ui.actAs !== null && (a.type === 'resign' || a.type === 'draw')) a.player = ui.actAs;
      send(a);
    });
  $('btn-declare').addEventListener('click', () =>
    send({ type: 'declare', n: parseInt($('declare-n').value, 10) }));
  $('btn-propose').addEventListener('click', () => send({ type: 'propose', points: ui.marks.slice() }));
  $('btn-propose-clear').addEventListener('click', () => { ui.marks = []; render(); });
  $('opt-numbers').addEventListener('change', render);
  $('opt-forbidden').addEventListener('change', render);
  $('upload').addEventListener('change', upload);
  $('cfg-opening').addEventListener('change', syncDesignated);
  try {
    const meta = await api('GET', '/api/meta');
    fillSelect('cfg-rule', meta.rules, 'renju');
    fillSelect('cfg-opening', meta.openings, 'free');
    fillSelect('cfg-forbidden', meta.forbidden, 'auto');
    fillSelect('cfg-designated', meta.designated, meta.designated[0]);
    syncDesignated();
  } catch (e) {
    showError('cannot reach the server: ' + e.message);
  }
  const m = /^#game=(\d+)$/.exec(location.hash);
  if (m) {
    try {
      setGame(await api('GET', '/api/games/' + m[1]));
    } catch (e) {
      showError(e.message);
    }
  }
  document.body.dataset.ready = '1';
}

init();
