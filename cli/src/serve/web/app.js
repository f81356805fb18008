// boardbase explorer: a front end over this server's JSON API. Every answer
// (rounds, presses, outcomes, moves, counts) comes from the API; this file
// only draws boards, reads clicks and keys, and asks.
'use strict';

const $ = (id) => document.getElementById(id);

/** GET or POST `path`; resolves to the parsed JSON, rejects with the API's error message. */
async function api(path, options) {
  const response = await fetch(path, options);
  let body;
  try {
    body = await response.json();
  } catch (_) {
    body = { error: `HTTP ${response.status}` };
  }
  if (!response.ok) {
    const error = new Error(body.error || `HTTP ${response.status}`);
    error.status = response.status;
    error.body = body;
    throw error;
  }
  return body;
}

/** Answers already fetched, by URL (lookups never change). */
const cache = new Map();
async function lookup(puzzle, board) {
  const url = `/api/v1/${puzzle}?board=${encodeURIComponent(board)}`;
  if (!cache.has(url)) {
    const pending = api(url);
    cache.set(url, pending);
    pending.catch(() => cache.delete(url));
  }
  return cache.get(url);
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    // The page's Content Security Policy ignores style attributes: use
    // classes, or set `node.style` properties.
    if (key === 'style') throw new Error('el(): no style attributes');
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const cellName = ([r, c]) => `(${r},${c})`;
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const keyOf = (cells) => cells.map(([r, c]) => `${r},${c}`).sort().join(';');

/** Arrow keys, Home and End move the focus between the `[data-r][data-c]` buttons of `container`. */
function gridKeys(container) {
  container.addEventListener('keydown', (event) => {
    const target = event.target.closest('[data-r]');
    if (!target) return;
    let r = Number(target.dataset.r);
    let c = Number(target.dataset.c);
    const cells = [...container.querySelectorAll('[data-r]')];
    const rows = Math.max(...cells.map((x) => Number(x.dataset.r))) + 1;
    const cols = Math.max(...cells.map((x) => Number(x.dataset.c))) + 1;
    switch (event.key) {
      case 'ArrowUp': r = (r + rows - 1) % rows; break;
      case 'ArrowDown': r = (r + 1) % rows; break;
      case 'ArrowLeft': c = (c + cols - 1) % cols; break;
      case 'ArrowRight': c = (c + 1) % cols; break;
      case 'Home': c = 0; if (event.ctrlKey) r = 0; break;
      case 'End': c = cols - 1; if (event.ctrlKey) r = rows - 1; break;
      default: return;
    }
    event.preventDefault();
    const next = container.querySelector(`[data-r="${r}"][data-c="${c}"]`);
    if (next) {
      cells.forEach((x) => x.setAttribute('tabindex', '-1'));
      next.setAttribute('tabindex', '0');
      next.focus();
    }
  });
}

/** Keeps one cell of a grid in the tab order: the focused one, or the first. */
function rovingFocus(container, focused) {
  const cells = [...container.querySelectorAll('[data-r]')];
  let chosen = cells.find((x) => x.dataset.r === String(focused?.[0]) && x.dataset.c === String(focused?.[1]));
  chosen = chosen || cells[0];
  cells.forEach((x) => x.setAttribute('tabindex', x === chosen ? '0' : '-1'));
}

function focusedCell(container) {
  const active = document.activeElement;
  if (active && container.contains(active) && active.dataset.r !== undefined) {
    return [Number(active.dataset.r), Number(active.dataset.c)];
  }
  return null;
}

function restoreFocus(container, cell) {
  if (!cell) return;
  const node = container.querySelector(`[data-r="${cell[0]}"][data-c="${cell[1]}"]`);
  if (node) node.focus();
}

// ---------------------------------------------------------------------------
// Tabs and the address bar: #flip=ROWS, #euler=ROWS, #carcassonne=RxC:CODES,
// #lights=ROWS;PARAMETERS, #game=NAME;size=RxC;OPTIONS;board=ROWS

const VIEWS = ['flip', 'euler', 'carcassonne', 'lights', 'game'];
let current = 'flip';

function showView(name, focusTab) {
  current = name;
  for (const view of VIEWS) {
    const tab = $(`tab-${view}`);
    const selected = view === name;
    tab.setAttribute('aria-selected', String(selected));
    tab.setAttribute('tabindex', selected ? '0' : '-1');
    $(`view-${view}`).hidden = !selected;
    if (selected && focusTab) tab.focus();
    // At phone width the tabs scroll sideways: the chosen one in sight.
    if (selected) tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
  // The Lights Out view asks the server only once it is shown (its
  // variant's structure can take a second or two).
  if (name === 'lights' && !lights.shownOnce) {
    lightsUpdate();
    return;
  }
  // So does the games view (a game is solved on the server on first use).
  if (name === 'game' && !game.shownOnce && game.loaded) {
    gameUpdate();
    return;
  }
  saveHash();
}

function saveHash() {
  let hash = '';
  if (current === 'flip') hash = `flip=${flip.text()}`;
  else if (current === 'euler') hash = `euler=${euler.text()}`;
  else if (current === 'carcassonne') hash = `carcassonne=${carc.rows}x${carc.cols}:${carc.tiles.join(',')}`;
  else if (current === 'lights') hash = lightsHash();
  else hash = gameHash();
  history.replaceState(null, '', `#${hash}`);
}

function setupTabs() {
  for (const view of VIEWS) $(`tab-${view}`).addEventListener('click', () => showView(view, false));
  document.querySelector('[role="tablist"]').addEventListener('keydown', (event) => {
    const i = VIEWS.indexOf(current);
    let next = null;
    if (event.key === 'ArrowRight') next = VIEWS[(i + 1) % VIEWS.length];
    if (event.key === 'ArrowLeft') next = VIEWS[(i + VIEWS.length - 1) % VIEWS.length];
    if (event.key === 'Home') next = VIEWS[0];
    if (event.key === 'End') next = VIEWS[VIEWS.length - 1];
    if (next) {
      event.preventDefault();
      showView(next, true);
    }
  });
}

// ---------------------------------------------------------------------------
// Board sizes the server answers (GET /api/v1/sizes)

let sizes = {
  flip: [{ size: '4x4', rows: 4, cols: 4, source: 'embedded' }],
  flip_gf2: null,
  euler: [{ size: '4x4', rows: 4, cols: 4, source: 'embedded' }],
};

/** The largest side the explorer draws (the API answers Flip up to 64 × 64). */
const MAX_SIDE = 20;
/** Flip sizes offered besides the tables: GF(2) answers them. */
const FLIP_PRESETS = [[3, 3], [5, 5], [6, 6], [7, 7], [8, 8], [9, 9], [10, 10], [12, 12], [15, 15], [20, 20]];

const sizeName = (rows, cols) => `${rows}x${cols}`;
const sizeLabel = (rows, cols) => `${rows} × ${cols}`;

/** Fewest squares first, then fewest rows: the order of every size list. */
const bySquares = (a, b) => a.rows * a.cols - b.rows * b.cols || a.rows - b.rows;

/** The selectors' groups, by what answers a size (the `source` of `/api/v1/sizes`). */
const FLIP_GROUPS = { embedded: 'Embedded table', file: 'Table files', gf2: 'Solved by GF(2)' };
const EULER_GROUPS = { embedded: 'Embedded table', file: 'Table files', 'made on demand': 'Made in memory on first use' };
/** The group of the board's size when nothing above answers it (a link to a size without a table). */
const OTHER_GROUP = 'Other sizes';

/**
 * `entries` ({ rows, cols, source }) in one group per source, in the order
 * of `names`, each labelled by `note`; the board's size `rows` × `cols`,
 * when no entry is it, in a group of its own.
 */
function grouped(entries, names, note, rows, cols) {
  const groups = new Map(Object.values(names).map((label) => [label, []]));
  const add = (label, item) => {
    if (!groups.has(label)) groups.set(label, []);
    groups.get(label).push(item);
  };
  for (const s of entries) {
    add(names[s.source] || OTHER_GROUP, { rows: s.rows, cols: s.cols, label: `${sizeLabel(s.rows, s.cols)} · ${note(s)}` });
  }
  if (!entries.some((s) => s.rows === rows && s.cols === cols)) add(OTHER_GROUP, { rows, cols, label: sizeLabel(rows, cols) });
  return [...groups].filter(([, list]) => list.length).map(([label, list]) => ({ label, sizes: list.sort(bySquares) }));
}

/**
 * The Flip selector: the tables, then common squares GF(2) answers, and the
 * board's own size (typed in, or from a link) where it belongs.
 */
function flipGroups(rows, cols) {
  const here = (s) => s.rows === rows && s.cols === cols;
  const entries = sizes.flip.filter((s) => here(s) || (!s.error && s.rows <= MAX_SIDE && s.cols <= MAX_SIDE));
  const gf2 = sizes.flip_gf2;
  if (gf2) {
    const beyond = new Set(gf2.beyond);
    for (const [r, c] of [...FLIP_PRESETS, [rows, cols]]) {
      const taken = sizes.flip.some((s) => s.rows === r && s.cols === c) || entries.some((s) => s.rows === r && s.cols === c);
      if (!taken && r <= gf2.max_rows && c <= gf2.max_cols && !beyond.has(sizeName(r, c))) entries.push({ rows: r, cols: c, source: 'gf2' });
    }
  }
  return grouped(entries, FLIP_GROUPS, (s) => (s.error ? 'unusable file' : s.source === 'gf2' ? 'GF(2)' : 'table'), rows, cols);
}

/** What a listed Euler size's option says after its size. */
function eulerNote(s) {
  if (s.error) return 'unusable file';
  if (s.source === 'file' && s.wdl_only) return 'table, win/loss only';
  // As of the last read of /api/v1/sizes (see `refreshSizes`).
  if (s.source === 'made on demand') return s.in_memory ? 'in memory' : 'made on first use';
  return 'table';
}

/** The Euler selector: every size the server answers, at least 2 × 2, and the board's own size. */
function eulerGroups(rows, cols) {
  const here = (s) => s.rows === rows && s.cols === cols;
  const listed = (s) => !s.error && s.rows >= 2 && s.cols >= 2 && s.rows <= MAX_SIDE && s.cols <= MAX_SIDE;
  return grouped(sizes.euler.filter((s) => here(s) || listed(s)), EULER_GROUPS, eulerNote, rows, cols);
}

/** The groups and sizes each selector was last filled with. */
const filled = new WeakMap();

/**
 * Fills a size selector with `groups` (from `flipGroups` or `eulerGroups`)
 * and selects `rows` × `cols`. The same sizes as before are relabelled in
 * place, so that a list the user has open stays open.
 */
function fillSizes(select, groups, rows, cols) {
  const layout = JSON.stringify(groups.map((g) => [g.label, g.sizes.map((s) => sizeName(s.rows, s.cols))]));
  if (filled.get(select) === layout) {
    const options = select.querySelectorAll('option');
    groups.flatMap((g) => g.sizes).forEach((s, i) => {
      if (options[i].textContent !== s.label) options[i].textContent = s.label;
    });
  } else {
    select.replaceChildren(...groups.map((g) => el('optgroup', { label: g.label },
      ...g.sizes.map((s) => el('option', { value: sizeName(s.rows, s.cols), text: s.label })))));
    filled.set(select, layout);
  }
  const value = sizeName(rows, cols);
  if (select.value !== value) select.value = value;
  const count = groups.reduce((n, g) => n + g.sizes.length, 0);
  select.disabled = count < 2;
  select.title = count < 2 ? 'The only size this server answers' : '';
}

/** A read of /api/v1/sizes under way, and whether another is wanted after it. */
const sizesRead = { pending: null, again: false };

/**
 * Reads /api/v1/sizes again and relabels the Euler selector: which tables
 * are in memory changes as the server makes tables and drops the least
 * recently used ones (for this page or any other client). Called when the
 * selector is about to be used, when the page is shown again, and after a
 * table was made. Reads overlapping one under way are made once it ends.
 */
function refreshSizes() {
  if (sizesRead.pending) {
    sizesRead.again = true;
    return sizesRead.pending;
  }
  sizesRead.pending = (async () => {
    do {
      sizesRead.again = false;
      try {
        sizes = await api('/api/v1/sizes', { cache: 'no-store' });
      } catch (_) {
        break; // Keep what was read before.
      }
      fillSizes($('euler-size'), eulerGroups(euler.rows, euler.cols), euler.rows, euler.cols);
    } while (sizesRead.again);
    sizesRead.pending = null;
  })();
  return sizesRead.pending;
}

function parseSize(value) {
  const [rows, cols] = value.split('x').map(Number);
  return { rows, cols };
}

/** Cell size: the board fits the page (and at most 32rem), cells of 0.9 to 3.6rem. */
function sizeBoard(view, rows, cols) {
  $(view).style.setProperty('--n', String(Math.max(rows, cols, 4)));
}

/**
 * An answer the server refused, in `view`'s panel: why (the API's message),
 * and for a table that is missing, the command that makes it.
 */
function showUnanswered(view, error) {
  const status = $(`${view}-status`);
  const body = error.body || {};
  const size = /^(\d+)x(\d+)$/.exec(body.size || '');
  status.className = 'status loss';
  status.textContent = error.status === 422 && size ? `No answer for ${sizeLabel(size[1], size[2])}` : 'No answer';
  $(`${view}-detail`).textContent = error.message;
  showCommand(view, body.command);
}

/** The command that makes a missing table, ready to copy; hidden without one. */
function showCommand(view, command) {
  const box = $(`${view}-command`);
  box.hidden = !command;
  box.replaceChildren(...(command ? ['Make the table with:', el('code', { text: command })] : []));
}

/** Shows "Working…" when an answer takes a while (a table made on first use, a large board). */
function slowNotice(status, detail, token, current, what) {
  return setTimeout(() => {
    if (token !== current()) return;
    $(status).className = 'status';
    $(status).textContent = 'Working…';
    $(detail).textContent = what;
  }, 250);
}

// ---------------------------------------------------------------------------
// Flip Game

const flip = {
  rows: 4,
  cols: 4,
  cells: 'bwwbbbwbbwwbbwww'.split(''),
  answer: null,
  token: 0,
  steps: null, // { boards: [text...], presses: [[r, c]...], k }
  allMoves: false,
  text(cells = this.cells) {
    const rows = [];
    for (let r = 0; r < this.rows; r++) rows.push(cells.slice(r * this.cols, (r + 1) * this.cols).join(''));
    return rows.join('/');
  },
  shown() {
    return this.steps && this.steps.k > 0 ? this.steps.boards[this.steps.k].replaceAll('/', '').split('') : this.cells;
  },
};

function flipMode() {
  return document.querySelector('input[name="flip-mode"]:checked').value;
}

function flipDraw() {
  const board = $('flip-board');
  const focused = focusedCell(board);
  const shown = flip.shown();
  const steps = flip.steps;
  const k = steps ? steps.k : 0;
  const toPress = new Set((steps ? steps.presses.slice(k) : flip.answer?.presses || []).map(([r, c]) => `${r},${c}`));
  const justPressed = steps && k > 0 ? steps.presses[k - 1] : null;
  board.style.gridTemplateColumns = `repeat(${flip.cols}, var(--cell))`;
  if (board.dataset.shape !== sizeName(flip.rows, flip.cols)) {
    board.dataset.shape = sizeName(flip.rows, flip.cols);
    sizeBoard('view-flip', flip.rows, flip.cols);
    board.replaceChildren();
    for (let r = 0; r < flip.rows; r++) {
      const row = el('div', { role: 'row', class: 'contents' });
      for (let c = 0; c < flip.cols; c++) {
        row.append(el('button', { type: 'button', class: 'cell', role: 'gridcell', 'data-r': r, 'data-c': c, onclick: () => flipClick(r, c) }));
      }
      board.append(row);
    }
  }
  for (const cell of board.querySelectorAll('.cell')) {
    const r = Number(cell.dataset.r);
    const c = Number(cell.dataset.c);
    const v = shown[r * flip.cols + c];
    const press = toPress.has(`${r},${c}`);
    cell.dataset.v = v;
    cell.classList.toggle('press', press);
    cell.classList.toggle('pressed', !!justPressed && justPressed[0] === r && justPressed[1] === c);
    cell.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}: ${v === 'b' ? 'black' : 'white'}${press ? ', to press' : ''}`);
  }
  rovingFocus(board, focused);
  restoreFocus(board, focused);
  flipDrawSteps();
}

function flipDrawSteps() {
  const steps = flip.steps;
  const n = steps ? steps.presses.length : 0;
  const k = steps ? steps.k : 0;
  $('flip-first').disabled = k === 0;
  $('flip-prev').disabled = k === 0;
  $('flip-next').disabled = k >= n;
  $('flip-last').disabled = k >= n;
  if (!steps || n === 0) {
    $('flip-step').textContent = flip.answer && flip.answer.solvable ? 'Nothing to press' : 'No solution to step through';
  } else if (k === 0) {
    $('flip-step').textContent = `Start: ${plural(n, 'press', 'presses')} to go`;
  } else {
    $('flip-step').textContent = `Press ${k} of ${n}: ${cellName(steps.presses[k - 1])}${k === n ? ' — done' : ''}`;
  }
}

function flipDrawAnswer() {
  const a = flip.answer;
  const status = $('flip-status');
  const moves = $('flip-moves');
  if (!a) return;
  status.className = 'status';
  showCommand('flip', null);
  if (!a.solvable) {
    status.textContent = 'Impossible';
    status.classList.add('loss');
    $('flip-detail').textContent = 'Neither all white nor all black can be reached from this board.';
  } else if (a.rounds === 0) {
    status.textContent = `Already all ${a.colour}`;
    status.classList.add('win');
    $('flip-detail').textContent = 'Nothing to press.';
  } else {
    status.textContent = `${plural(a.rounds, 'round', 'rounds')} to all ${a.colour}`;
    status.classList.add('win');
    const other = a.colour === 'white' ? a.to_black : a.to_white;
    const otherName = a.colour === 'white' ? 'black' : 'white';
    $('flip-detail').textContent = `Press ${a.presses.map(cellName).join(' ')}. ` +
      `${plural(a.optimal_sets, 'optimal press set', 'optimal press sets')}; all ${otherName} takes ${plural(other.rounds, 'round', 'rounds')}.`;
  }
  const shown = flip.allMoves ? a.moves : a.moves.slice(0, MOVES_SHOWN);
  moves.replaceChildren(...shown.map((m) => {
    const better = a.solvable && m.rounds < a.rounds;
    const badge = m.solvable ? plural(m.rounds, 'round', 'rounds') : 'impossible';
    return el('li', {}, el('button', {
      type: 'button',
      class: `move ${a.solvable ? (better ? 'win' : 'loss') : ''}`,
      'aria-label': `press ${cellName(m.cell)}: ${badge} after it`,
      onclick: () => flipSet(afterPress(m, a.board)),
      onmouseenter: () => flipHover(m.cell),
      onmouseleave: () => flipHover(null),
      onfocus: () => flipHover(m.cell),
      onblur: () => flipHover(null),
    }, el('span', { text: cellName(m.cell) }), el('span', { class: 'badge', text: badge })));
  }));
  const more = $('flip-moves-all');
  more.hidden = a.moves.length <= MOVES_SHOWN;
  more.textContent = flip.allMoves ? `Show the best ${MOVES_SHOWN}` : `Show all ${a.moves.length}`;
}

/** Presses listed before "Show all". */
const MOVES_SHOWN = 24;

/** The board after a press: the API's (boards of up to 64 cells), else the cell and its neighbours flipped. */
function afterPress(move, text) {
  if (move.board) return move.board;
  const rows = text.split('/').map((row) => row.split(''));
  const [r, c] = move.cell;
  for (const [dr, dc] of [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]]) {
    const row = rows[r + dr];
    if (row && row[c + dc]) row[c + dc] = row[c + dc] === 'b' ? 'w' : 'b';
  }
  return rows.map((row) => row.join('')).join('/');
}

function flipHover(cell) {
  for (const node of $('flip-board').querySelectorAll('.cell')) {
    node.classList.toggle('hover', !!cell && Number(node.dataset.r) === cell[0] && Number(node.dataset.c) === cell[1]);
  }
}

async function flipUpdate() {
  const token = ++flip.token;
  const text = flip.text();
  flip.steps = null;
  saveHash();
  flipDraw();
  const slow = slowNotice('flip-status', 'flip-detail', token, () => flip.token, 'Solving this board…');
  try {
    const answer = await lookup('flip', text);
    clearTimeout(slow);
    if (token !== flip.token) return;
    flip.answer = answer;
    flip.steps = { boards: [text], presses: answer.presses || [], k: 0 };
  } catch (error) {
    clearTimeout(slow);
    if (token !== flip.token) return;
    flip.answer = null;
    showUnanswered('flip', error);
    $('flip-moves').replaceChildren();
    $('flip-moves-all').hidden = true;
  }
  flipDrawAnswer();
  flipDraw();
}

function flipSet(text) {
  flip.cells = text.replaceAll('/', '').split('');
  flipUpdate();
}

/** Adopts the board shown while stepping, so that a click edits what is seen. */
function flipAdoptShown() {
  if (flip.steps && flip.steps.k > 0) {
    flip.cells = flip.shown().slice();
    flip.steps = null;
  }
}

function flipClick(r, c) {
  flipAdoptShown();
  if (flipMode() === 'press') {
    // The API says what a press does: the move's board.
    const move = flip.answer?.moves.find((m) => m.cell[0] === r && m.cell[1] === c);
    if (move && flip.answer.board === flip.text()) {
      flipSet(afterPress(move, flip.answer.board));
    }
    return;
  }
  const i = r * flip.cols + c;
  flip.cells[i] = flip.cells[i] === 'b' ? 'w' : 'b';
  flipUpdate();
}

async function flipStep(target) {
  const steps = flip.steps;
  if (!steps) return;
  const token = flip.token;
  target = Math.max(0, Math.min(target, steps.presses.length));
  while (steps.boards.length <= target) {
    const k = steps.boards.length - 1;
    const answer = await lookup('flip', steps.boards[k]);
    if (token !== flip.token) return;
    const [r, c] = steps.presses[k];
    steps.boards.push(afterPress(answer.moves.find((m) => m.cell[0] === r && m.cell[1] === c), steps.boards[k]));
  }
  steps.k = target;
  flipDraw();
}

function setupFlip() {
  gridKeys($('flip-board'));
  $('flip-white').addEventListener('click', () => flipSet('w'.repeat(flip.rows * flip.cols)));
  $('flip-random').addEventListener('click', () => {
    flipSet(Array.from({ length: flip.rows * flip.cols }, () => (Math.random() < 0.5 ? 'b' : 'w')).join(''));
  });
  $('flip-sample').addEventListener('click', () => {
    if (flip.rows !== 4 || flip.cols !== 4) flipResize(4, 4, false);
    flipSet('bwwb/bbwb/bwwb/bwww');
  });
  $('flip-first').addEventListener('click', () => flipStep(0));
  $('flip-prev').addEventListener('click', () => flipStep(flip.steps.k - 1));
  $('flip-next').addEventListener('click', () => flipStep(flip.steps.k + 1));
  $('flip-last').addEventListener('click', () => flipStep(Infinity));
  $('flip-size').addEventListener('change', (event) => {
    const { rows, cols } = parseSize(event.target.value);
    flipResize(rows, cols, true);
  });
  const readCustom = () => {
    const clamp = (v, was) => Math.max(1, Math.min(MAX_SIDE, Number.parseInt(v, 10) || was));
    const rows = clamp($('flip-rows').value, flip.rows);
    const cols = clamp($('flip-cols').value, flip.cols);
    if (rows !== flip.rows || cols !== flip.cols) flipResize(rows, cols, true);
    else flipSizeControls();
  };
  for (const id of ['flip-rows', 'flip-cols']) {
    $(id).addEventListener('change', readCustom);
    $(id).addEventListener('keydown', (event) => {
      if (event.key === 'Enter') readCustom();
    });
  }
  $('flip-moves-all').addEventListener('click', () => {
    flip.allMoves = !flip.allMoves;
    flipDrawAnswer();
  });
}

/** Shows the current size in the selector and the two inputs. */
function flipSizeControls() {
  fillSizes($('flip-size'), flipGroups(flip.rows, flip.cols), flip.rows, flip.cols);
  $('flip-rows').value = String(flip.rows);
  $('flip-cols').value = String(flip.cols);
}

/** A new size: an all-white board; `update` asks for its answer. */
function flipResize(rows, cols, update) {
  flip.rows = rows;
  flip.cols = cols;
  flip.cells = Array(rows * cols).fill('w');
  flip.answer = null;
  flip.allMoves = false;
  flipSizeControls();
  if (update) flipUpdate();
}

// ---------------------------------------------------------------------------
// Game of Euler

const euler = {
  rows: 4,
  cols: 4,
  cells: Array(16).fill('.'),
  answer: null,
  token: 0,
  history: [], // { before, move, by }
  timer: null,
  text(cells = this.cells) {
    const rows = [];
    for (let r = 0; r < this.rows; r++) rows.push(cells.slice(r * this.cols, (r + 1) * this.cols).join(''));
    return rows.join('/');
  },
};

function eulerMode() {
  return document.querySelector('input[name="euler-mode"]:checked').value;
}

/** The squares of a pin of `length` slid in from `side` along line `i`. */
function slideCells(side, i, length) {
  const { rows, cols } = euler;
  const out = [];
  for (let k = 0; k < length; k++) {
    if (side === 'left') out.push([i, k]);
    if (side === 'right') out.push([i, cols - 1 - k]);
    if (side === 'top') out.push([k, i]);
    if (side === 'bottom') out.push([rows - 1 - k, i]);
  }
  return out;
}

const SIDE_WORDS = { left: 'from the left', right: 'from the right', top: 'from the top', bottom: 'from the bottom' };

function eulerBuild() {
  const frame = $('euler-frame');
  const { rows, cols } = euler;
  sizeBoard('view-euler', rows, cols);
  frame.replaceChildren();
  frame.style.gridTemplateColumns = `auto repeat(${cols}, var(--cell)) auto`;
  frame.style.gridTemplateRows = `auto repeat(${rows}, var(--cell)) auto`;
  const slides = (side, i, vertical) => {
    const box = el('div', { class: `slides${vertical ? ' v' : ''}` });
    for (const length of [2, 3]) {
      const line = side === 'left' || side === 'right' ? rows : cols;
      if (length > (side === 'left' || side === 'right' ? cols : rows) || i >= line) continue;
      const cells = slideCells(side, i, length);
      const what = side === 'left' || side === 'right' ? `row ${i + 1}` : `column ${i + 1}`;
      box.append(el('button', {
        type: 'button',
        class: 'slide',
        'data-key': keyOf(cells),
        'data-label': `pin of ${length} into ${what} ${SIDE_WORDS[side]}`,
        text: String(length),
        onclick: () => eulerPlayKey(keyOf(cells)),
        onmouseenter: () => eulerHover(cells),
        onmouseleave: () => eulerHover(null),
        onfocus: () => eulerHover(cells),
        onblur: () => eulerHover(null),
      }));
    }
    return box;
  };
  // Laid out in reading order on a (rows + 2) × (cols + 2) grid: the slides
  // of each side around the squares.
  const corner = () => el('div', { 'aria-hidden': 'true' });
  frame.append(corner());
  for (let c = 0; c < cols; c++) frame.append(slides('top', c, false));
  frame.append(corner());
  for (let r = 0; r < rows; r++) {
    frame.append(slides('left', r, true));
    for (let c = 0; c < cols; c++) {
      frame.append(el('button', {
        type: 'button', class: 'cell', 'data-r': r, 'data-c': c,
        onclick: () => eulerClick(r, c),
        onmouseenter: () => eulerHover([[r, c]]),
        onmouseleave: () => eulerHover(null),
      }));
    }
    frame.append(slides('right', r, true));
  }
  frame.append(corner());
  for (let c = 0; c < cols; c++) frame.append(slides('bottom', c, false));
  frame.append(corner());
}

function eulerMoves() {
  const map = new Map();
  if (euler.answer && euler.answer.board === euler.text()) {
    for (const m of euler.answer.moves) map.set(keyOf(m.cells), m);
  }
  return map;
}

/** A move's value for the player making it: it wins when it leaves a lost position. */
const winsFor = (m) => m.outcome === 'loss';
const moveBadge = (m) => `${winsFor(m) ? 'win' : 'loss'}${m.moves_left === null ? '' : ` in ${m.moves_left + 1}`}`;
const moveName = (m) => (m.cells.length === 1 ? cellName(m.cells[0]) : `${cellName(m.cells[0])}–${cellName(m.cells[m.cells.length - 1])}`);

function eulerDraw() {
  const frame = $('euler-frame');
  const focused = focusedCell(frame);
  const moves = eulerMoves();
  const last = euler.history.length ? new Set(euler.history[euler.history.length - 1].move.cells.map(([r, c]) => `${r},${c}`)) : new Set();
  for (const cell of frame.querySelectorAll('.cell')) {
    const r = Number(cell.dataset.r);
    const c = Number(cell.dataset.c);
    const v = euler.cells[r * euler.cols + c];
    const move = moves.get(`${r},${c}`);
    cell.dataset.v = v;
    cell.classList.toggle('win', !!move && winsFor(move));
    cell.classList.toggle('loss', !!move && !winsFor(move));
    cell.classList.toggle('last', last.has(`${r},${c}`));
    const value = move ? `; covering it: ${moveBadge(move)}` : '';
    cell.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}: ${v === 'X' ? 'covered' : 'open'}${value}`);
  }
  for (const slide of frame.querySelectorAll('.slide')) {
    const move = moves.get(slide.dataset.key);
    slide.disabled = !move;
    slide.classList.toggle('win', !!move && winsFor(move));
    slide.classList.toggle('loss', !!move && !winsFor(move));
    slide.setAttribute('aria-label', `${slide.dataset.label}${move ? `: ${moveBadge(move)}` : ': not possible'}`);
    slide.title = slide.getAttribute('aria-label');
  }
  rovingFocus(frame, focused);
  restoreFocus(frame, focused);
  const history = euler.history.map((h) => `${h.by === 'engine' ? 'Engine' : 'You'}: ${moveName(h.move)}`);
  $('euler-history').textContent = history.length ? history.join(' · ') : 'No moves yet.';
  $('euler-undo').disabled = euler.history.length === 0;
}

function eulerHover(cells) {
  const keys = new Set((cells || []).map(([r, c]) => `${r},${c}`));
  for (const node of $('euler-frame').querySelectorAll('.cell')) {
    node.classList.toggle('hover', keys.has(`${node.dataset.r},${node.dataset.c}`));
  }
}

function eulerDrawAnswer() {
  const a = euler.answer;
  const status = $('euler-status');
  if (!a) return;
  status.className = 'status';
  showCommand('euler', null);
  const engineOn = $('euler-engine').checked;
  if (a.legal_moves === 0) {
    const last = euler.history[euler.history.length - 1];
    if (last) {
      const loser = last.by === 'engine' ? 'The engine' : 'You';
      status.textContent = last.by === 'engine' ? 'You win' : 'The engine wins';
      status.classList.add(last.by === 'engine' ? 'win' : 'loss');
      $('euler-detail').textContent = `${loser} covered the last square. Undo, or start a new game.`;
    } else {
      status.textContent = 'Game over';
      $('euler-detail').textContent = 'The board is full: whoever covered the last square lost, so the player to move has won.';
    }
  } else {
    const win = a.outcome === 'win';
    const who = engineOn ? 'You' : 'The player to move';
    status.textContent = `${who} ${win ? 'win' : 'lose'}${engineOn ? '' : 's'} with perfect play`;
    status.classList.add(win ? 'win' : 'loss');
    const counts = `${a.winning_moves} of ${plural(a.legal_moves, 'legal move', 'legal moves')} win.`;
    $('euler-detail').textContent = a.moves_left === null
      ? `This size's table holds win or loss only: how many moves are left is unknown. ${counts}`
      : `${plural(a.moves_left, 'move', 'moves')} left (both players'): ` +
        `${win ? 'the fastest win' : 'the longest resistance'} starts with ${moveName(a.moves[0])}. ${counts}`;
  }
  const item = (m) => el('li', {}, el('button', {
    type: 'button',
    class: `move ${winsFor(m) ? 'win' : 'loss'}`,
    'aria-label': `${moveName(m)}: ${moveBadge(m)}`,
    onclick: () => eulerPlay(m, 'you'),
    onmouseenter: () => eulerHover(m.cells),
    onmouseleave: () => eulerHover(null),
    onfocus: () => eulerHover(m.cells),
    onblur: () => eulerHover(null),
  }, el('span', { text: moveName(m) }), el('span', { class: 'badge', text: moveBadge(m) })));
  const none = (text) => el('li', { class: 'none', text });
  const winning = a.moves.filter(winsFor);
  const losing = a.moves.filter((m) => !winsFor(m));
  for (const id of ['euler-winning', 'euler-losing']) {
    $(id).hidden = false;
    $(`${id}-title`).hidden = false;
  }
  $('euler-winning').replaceChildren(...(winning.length ? winning.map(item) : [none('none')]));
  $('euler-losing').replaceChildren(...(losing.length ? losing.map(item) : [none('none')]));
}

async function eulerUpdate() {
  const token = ++euler.token;
  clearTimeout(euler.timer);
  saveHash();
  eulerDraw();
  const entry = sizes.euler.find((s) => s.rows === euler.rows && s.cols === euler.cols);
  const making = entry && entry.source === 'made on demand' && !entry.in_memory;
  const slow = slowNotice('euler-status', 'euler-detail', token, () => euler.token, making
    ? `The first ${sizeLabel(euler.rows, euler.cols)} position makes this size's table in memory (up to a second).`
    : 'Looking up this position…');
  try {
    const answer = await lookup('euler', euler.text());
    clearTimeout(slow);
    if (token !== euler.token) return;
    euler.answer = answer;
    eulerMadeNow();
  } catch (error) {
    clearTimeout(slow);
    if (token !== euler.token) return;
    euler.answer = null;
    showUnanswered('euler', error);
    // No answer: no move lists, nor their headings.
    for (const id of ['euler-winning', 'euler-losing']) {
      $(id).replaceChildren();
      $(id).hidden = true;
      $(`${id}-title`).hidden = true;
    }
  }
  eulerDrawAnswer();
  eulerDraw();
  const last = euler.history[euler.history.length - 1];
  if ($('euler-engine').checked && last && last.by === 'you' && euler.answer && euler.answer.legal_moves > 0) {
    euler.timer = setTimeout(eulerEngine, 450);
  }
}

/**
 * After an answer for a size last read as not in memory: the server has
 * made its table, and may have dropped others to make room for it, so the
 * selector reads the sizes again.
 */
function eulerMadeNow() {
  const entry = sizes.euler.find((s) => s.rows === euler.rows && s.cols === euler.cols);
  if (entry && entry.source === 'made on demand' && !entry.in_memory) refreshSizes();
}

function eulerPlay(move, by) {
  euler.history.push({ before: euler.cells.slice(), move, by });
  euler.cells = move.board.replaceAll('/', '').split('');
  eulerUpdate();
}

function eulerPlayKey(key) {
  const move = eulerMoves().get(key);
  if (move) eulerPlay(move, 'you');
}

/** The engine plays the first move of the list: the best one. */
function eulerEngine() {
  const a = euler.answer;
  if (a && a.board === euler.text() && a.moves.length) eulerPlay(a.moves[0], 'engine');
}

function eulerClick(r, c) {
  if (eulerMode() === 'play') {
    eulerPlayKey(`${r},${c}`);
    return;
  }
  const i = r * euler.cols + c;
  euler.cells[i] = euler.cells[i] === 'X' ? '.' : 'X';
  euler.history = [];
  eulerUpdate();
}

function eulerUndo() {
  clearTimeout(euler.timer);
  // Take back the engine's reply with the move it answered.
  let entry = euler.history.pop();
  if (entry && entry.by === 'engine' && euler.history.length && $('euler-engine').checked) entry = euler.history.pop();
  if (entry) {
    euler.cells = entry.before;
    eulerUpdate();
  }
}

function setupEuler() {
  gridKeys($('euler-frame'));
  $('euler-new').addEventListener('click', () => {
    euler.cells = Array(euler.rows * euler.cols).fill('.');
    euler.history = [];
    eulerUpdate();
  });
  $('euler-undo').addEventListener('click', eulerUndo);
  $('euler-engine-now').addEventListener('click', eulerEngine);
  $('euler-engine').addEventListener('change', eulerDrawAnswer);
  // What is in memory may have changed since the last read: read it again
  // before the list is opened (a click, or the keyboard's focus).
  $('euler-size').addEventListener('focus', refreshSizes);
  $('euler-size').addEventListener('pointerdown', refreshSizes);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refreshSizes();
  });
  $('euler-size').addEventListener('change', (event) => {
    const shape = parseSize(event.target.value);
    euler.rows = shape.rows;
    euler.cols = shape.cols;
    euler.cells = Array(shape.rows * shape.cols).fill('.');
    euler.history = [];
    eulerBuild();
    eulerUpdate();
  });
}

// ---------------------------------------------------------------------------
// Carcassonne

const LETTERS = ['C', 'R', 'F'];
const NAMES = { C: 'city', R: 'road', F: 'field' };
const SAMPLES = {
  sample2: { rows: 1, cols: 2, tiles: ['RRRF', 'FCCC'] },
  sample3: {
    rows: 8,
    cols: 8,
    tiles: ('FCFF RRFC FRCR FRFR RCCR FFCC RRFF CRFR FRRC FRFR CCCR FCFC CRRC CRRR FRCR FRFR ' +
      'RRCR FRRR CCCR FFFC RRFF RFCR CCFF FCCC CFCF RRFF CRFR FFRR FRRF CCRR FFFC CRRF ' +
      'CFRR FFFF FFFF RRFF RRRR RCRR FFCC RFRF RRCF FRFR FRRR FRFR RCCR RCCC CFFC RFRF ' +
      'CFCF FRFF RRFF FFFF CFFF CFFF FRFF RFRR CCRR FCFC FCCC FCCC FFCC FCCF FFCC RFRF').split(' '),
  },
};

const carc = { rows: 2, cols: 3, tiles: ['RRFF', 'FRRF', 'CCCC', 'FFRR', 'RFFR', 'CCCC'], token: 0, timer: null };

const validCode = (code) => /^[CRF]{4}$/.test(code);

/** A tile drawn as four triangles, top, right, bottom, left; `onEdge(i)` when one is clicked. */
function tileSvg(code, onEdge) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('aria-hidden', 'true');
  const shapes = [
    ['0,0 100,0 50,50', 50, 17],
    ['100,0 100,100 50,50', 83, 50],
    ['0,100 100,100 50,50', 50, 83],
    ['0,0 0,100 50,50', 17, 50],
  ];
  shapes.forEach(([points, x, y], i) => {
    const letter = validCode(code) ? code[i] : null;
    const polygon = document.createElementNS(ns, 'polygon');
    polygon.setAttribute('points', points);
    polygon.setAttribute('class', letter ? `e-${letter}` : 'e-bad');
    if (onEdge) polygon.addEventListener('click', () => onEdge(i));
    svg.append(polygon);
    if (letter) {
      const text = document.createElementNS(ns, 'text');
      text.setAttribute('x', String(x));
      text.setAttribute('y', String(y));
      text.textContent = letter;
      svg.append(text);
    }
  });
  return svg;
}

function carcBuild() {
  const board = $('carc-board');
  board.style.gridTemplateColumns = `repeat(${carc.cols}, var(--tile))`;
  board.replaceChildren();
  carc.tiles.forEach((code, i) => {
    const r = Math.floor(i / carc.cols);
    const c = i % carc.cols;
    const tile = el('div', { class: 'tile' });
    const input = el('input', {
      type: 'text', value: code, maxlength: '4', spellcheck: 'false', autocomplete: 'off', autocapitalize: 'characters',
      'aria-label': `tile at row ${r + 1}, column ${c + 1}: code, edges clockwise from the top`,
      'aria-invalid': String(!validCode(code)),
    });
    input.addEventListener('input', () => {
      const value = input.value.toUpperCase().replace(/\s/g, '');
      carc.tiles[i] = value;
      input.setAttribute('aria-invalid', String(!validCode(value)));
      tile.querySelector('svg').replaceWith(tileSvg(value, (edge) => carcEdge(i, edge)));
      carcChanged();
    });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') carcCount();
    });
    tile.append(tileSvg(code, (edge) => carcEdge(i, edge)), input);
    board.append(tile);
  });
  carcDrawWitness(null);
}

function carcEdge(i, edge) {
  const code = validCode(carc.tiles[i]) ? carc.tiles[i] : 'CCCC';
  const next = LETTERS[(LETTERS.indexOf(code[edge]) + 1) % 3];
  carc.tiles[i] = code.slice(0, edge) + next + code.slice(edge + 1);
  const tile = $('carc-board').children[i];
  tile.querySelector('input').value = carc.tiles[i];
  tile.querySelector('input').setAttribute('aria-invalid', 'false');
  tile.querySelector('svg').replaceWith(tileSvg(carc.tiles[i], (e) => carcEdge(i, e)));
  carcChanged();
}

/** The witness board, or blank tiles of the same size so nothing moves. */
function carcDrawWitness(witness) {
  const box = $('carc-witness');
  box.style.gridTemplateColumns = `repeat(${carc.cols}, var(--tile))`;
  const tiles = [];
  for (let r = 0; r < carc.rows; r++) {
    for (let c = 0; c < carc.cols; c++) {
      const code = witness ? witness.tiles[r][c] : '';
      const turns = witness ? witness.turns[r][c] : null;
      const label = witness ? `row ${r + 1}, column ${c + 1}: ${code}, turned ${turns} quarter turns clockwise` : undefined;
      tiles.push(el('div', { class: witness ? 'tile' : 'tile blank', role: witness ? 'img' : undefined, 'aria-label': label },
        tileSvg(code, null), el('span', { class: 'turns', text: witness ? `${code} ↻${turns}` : '' })));
    }
  }
  box.replaceChildren(...tiles);
}

function carcChanged() {
  saveHash();
  clearTimeout(carc.timer);
  carc.timer = setTimeout(carcCount, 350);
}

async function carcCount() {
  clearTimeout(carc.timer);
  const token = ++carc.token;
  const status = $('carc-status');
  const bad = carc.tiles.findIndex((code) => !validCode(code));
  if (bad >= 0) {
    $('carc-input-error').textContent = `Tile ${bad + 1} (row ${Math.floor(bad / carc.cols) + 1}, column ${bad % carc.cols + 1}) needs 4 letters of C, R and F.`;
    return;
  }
  $('carc-input-error').textContent = '';
  status.className = 'status';
  status.textContent = 'Counting…';
  try {
    const answer = await api('/api/v1/carcassonne', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rows: carc.rows, cols: carc.cols, tiles: carc.tiles }),
    });
    if (token !== carc.token) return;
    const exact = answer.exact;
    const huge = exact.length > 12;
    status.classList.add(answer.witness ? 'win' : 'loss');
    status.textContent = `${huge ? answer.count : exact} valid ${exact === '1' ? 'placement' : 'placements'}${huge ? ' (mod 1,000,000,007)' : ''}`;
    $('carc-detail').textContent = `Exactly ${exact}; modulo 1,000,000,007: ${answer.count}.`;
    carcDrawWitness(answer.witness);
    $('carc-witness-title').textContent = answer.witness ? 'One valid placement' : 'No valid placement exists';
  } catch (error) {
    if (token !== carc.token) return;
    status.classList.add('loss');
    status.textContent = 'Not counted';
    $('carc-detail').textContent = error.message;
    carcDrawWitness(null);
  }
}

function carcResize(rows, cols) {
  const tiles = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) tiles.push(r < carc.rows && c < carc.cols ? carc.tiles[r * carc.cols + c] : 'CCCC');
  }
  carc.rows = rows;
  carc.cols = cols;
  carc.tiles = tiles;
  $('carc-rows').value = String(rows);
  $('carc-cols').value = String(cols);
  carcBuild();
  carcChanged();
}

const randomLetter = () => LETTERS[Math.floor(Math.random() * 3)];

/** Random tiles around random edges, each tile then turned at random: at least one placement exists. */
function plantedTiles(rows, cols) {
  const horizontal = Array.from({ length: (rows + 1) * cols }, randomLetter); // edge above cell (r, c): r * cols + c
  const vertical = Array.from({ length: rows * (cols + 1) }, randomLetter); // edge left of cell (r, c): r * (cols + 1) + c
  const tiles = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const edges = [horizontal[r * cols + c], vertical[r * (cols + 1) + c + 1], horizontal[(r + 1) * cols + c], vertical[r * (cols + 1) + c]];
      const turn = Math.floor(Math.random() * 4);
      tiles.push([0, 1, 2, 3].map((k) => edges[(k + turn) % 4]).join(''));
    }
  }
  return tiles;
}

function setupCarcassonne() {
  const readSize = () => {
    const clamp = (v) => Math.max(1, Math.min(16, Number.parseInt(v, 10) || 1));
    const rows = clamp($('carc-rows').value);
    const cols = clamp($('carc-cols').value);
    if (rows !== carc.rows || cols !== carc.cols) carcResize(rows, cols);
  };
  $('carc-rows').addEventListener('change', readSize);
  $('carc-cols').addEventListener('change', readSize);
  $('carc-count').addEventListener('click', carcCount);
  $('carc-fill').addEventListener('change', (event) => {
    const choice = event.target.value;
    event.target.value = '';
    const sample = SAMPLES[choice];
    if (sample) {
      carc.rows = sample.rows;
      carc.cols = sample.cols;
      carc.tiles = sample.tiles.slice();
    } else if (choice === 'planted') {
      carc.tiles = plantedTiles(carc.rows, carc.cols);
    } else if (choice === 'random') {
      carc.tiles = carc.tiles.map(() => Array.from({ length: 4 }, randomLetter).join(''));
    } else if (choice === 'CCCC') {
      carc.tiles = carc.tiles.map(() => 'CCCC');
    } else {
      return;
    }
    $('carc-rows').value = String(carc.rows);
    $('carc-cols').value = String(carc.cols);
    carcBuild();
    carcChanged();
  });
}

// ---------------------------------------------------------------------------
// The Lights Out family: #lights=ROWS[;colours=K][;wrap=true][;pattern=P][;goal=G]

/** The family's limits (as the API's): sides of 1 to 64, 2 to 16 colours. */
const LIGHTS_MAX_SIDE = 64;
const LIGHTS_MIN_COLOURS = 2;
const LIGHTS_MAX_COLOURS = 16;
/** The preset patterns as stencils (to draw a press while stepping, and to start a custom one from). */
const LIGHTS_PRESETS = { plus: '.#./###/.#.', neighbours: '.#./#.#/.#.', x: '#.#/.#./#.#', king: '###/###/###' };
/** Quiet patterns drawn (the rest are counted), and the cells drawn over all of them at most. */
const QUIET_SHOWN = 16;
const QUIET_CELLS = 20000;

const lights = {
  rows: 5,
  cols: 5,
  colours: 2,
  wrap: false,
  pattern: 'plus', // the API's `pattern`: a preset's name or a stencil's rows
  goal: '0', // a colour's digits, or 'any'
  // The classic 5 × 5, after presses at (0,0) and (2,2).
  cells: '11000/10100/01110/00100/00000'.replaceAll('/', '').split('').map(Number),
  answer: null,
  token: 0,
  steps: null, // { boards: [cells...], presses: [[r, c]...], k }
  allMoves: false,
  infoKey: null,
  infoToken: 0,
  shownOnce: false,
  timer: null,
  text(cells = this.cells) {
    const rows = [];
    for (let r = 0; r < this.rows; r++) {
      rows.push(cells.slice(r * this.cols, (r + 1) * this.cols).map((v) => v.toString(16)).join(''));
    }
    return rows.join('/');
  },
  /** The variant's query parameters, as /api/v1/lights and /api/v1/lights/info read them. */
  variant() {
    return `colours=${this.colours}&wrap=${this.wrap}&pattern=${encodeURIComponent(this.pattern)}`;
  },
  shown() {
    return this.steps && this.steps.k > 0 ? this.steps.boards[this.steps.k] : this.cells;
  },
};

/** GET `url` once a page: lookups and variants never change. */
function cachedGet(url) {
  if (!cache.has(url)) {
    const pending = api(url);
    cache.set(url, pending);
    pending.catch(() => cache.delete(url));
  }
  return cache.get(url);
}

function lightsMode() {
  return document.querySelector('input[name="lights-mode"]:checked').value;
}

/**
 * The cells (row-major indices) a press at (r, c) changes under `pattern`
 * (a preset's name or a stencil's rows): clipped at the border, or wrapped
 * round on a torus, each cell once. `null` for a pattern that is not a
 * stencil (the API says why).
 */
function pressedCells(pattern, r, c) {
  const rows = (LIGHTS_PRESETS[pattern] || pattern).split('/');
  const height = rows.length;
  const width = rows[0].length;
  if (height % 2 === 0 || width % 2 === 0 || rows.some((row) => row.length !== width || !/^[#.]+$/.test(row))) return null;
  const out = new Set();
  rows.forEach((row, i) => [...row].forEach((ch, j) => {
    if (ch !== '#') return;
    let rr = r + i - (height - 1) / 2;
    let cc = c + j - (width - 1) / 2;
    if (lights.wrap) {
      rr = ((rr % lights.rows) + lights.rows) % lights.rows;
      cc = ((cc % lights.cols) + lights.cols) % lights.cols;
    }
    if (rr >= 0 && rr < lights.rows && cc >= 0 && cc < lights.cols) out.add(rr * lights.cols + cc);
  }));
  return out;
}

/** `cells` after one press at `cell` (a copy), or `null` when the pattern cannot be read. */
function lightsPress(cells, [r, c], pattern = lights.pattern) {
  const changed = pressedCells(pattern, r, c);
  if (!changed) return null;
  const out = cells.slice();
  for (const i of changed) out[i] = (out[i] + 1) % lights.colours;
  return out;
}

/** How many times each cell is pressed in `presses` (a list, a cell pressed j times listed j times). */
function pressCounts(presses) {
  const counts = new Map();
  for (const [r, c] of presses) counts.set(`${r},${c}`, (counts.get(`${r},${c}`) || 0) + 1);
  return counts;
}

const times = (n) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);
const pressName = ([key, n]) => {
  const [r, c] = key.split(',');
  return `(${r},${c})${n > 1 ? `×${n}` : ''}`;
};

function lightsDraw() {
  const board = $('lights-board');
  const focused = focusedCell(board);
  const shown = lights.shown();
  const steps = lights.steps;
  const k = steps ? steps.k : 0;
  const a = lights.answer && lights.answer.board === lights.text() ? lights.answer : null;
  const counts = pressCounts(steps ? steps.presses.slice(k) : a?.presses || []);
  const justPressed = steps && k > 0 ? steps.presses[k - 1] : null;
  // The cells that start an optimal press vector: a press there leaves one fewer.
  const best = new Set();
  if (a && a.solvable && k === 0) {
    for (const m of a.moves) if (m.rounds === a.rounds - 1) best.add(`${m.cell[0]},${m.cell[1]}`);
  }
  const shape = sizeName(lights.rows, lights.cols);
  if (board.dataset.shape !== shape) {
    board.dataset.shape = shape;
    const n = Math.max(lights.rows, lights.cols, 4);
    $('view-lights').style.setProperty('--n', String(n));
    board.classList.toggle('dense', n > 16);
    board.style.gridTemplateColumns = `repeat(${lights.cols}, var(--cell))`;
    board.replaceChildren();
    for (let r = 0; r < lights.rows; r++) {
      const row = el('div', { role: 'row', class: 'contents' });
      for (let c = 0; c < lights.cols; c++) {
        row.append(el('button', { type: 'button', class: 'cell', role: 'gridcell', 'data-r': r, 'data-c': c, onclick: () => lightsClick(r, c) },
          el('span', { class: 'digit' }), el('span', { class: 'count' })));
      }
      board.append(row);
    }
  }
  for (const cell of board.querySelectorAll('.cell')) {
    const r = Number(cell.dataset.r);
    const c = Number(cell.dataset.c);
    const v = shown[r * lights.cols + c];
    const presses = counts.get(`${r},${c}`) || 0;
    cell.dataset.v = String(v);
    cell.dataset.press = String(presses);
    cell.className = `cell c${v}${presses ? ' press' : ''}${best.has(`${r},${c}`) ? ' best' : ''}` +
      `${justPressed && justPressed[0] === r && justPressed[1] === c ? ' pressed' : ''}`;
    cell.firstChild.textContent = v.toString(16);
    cell.lastChild.textContent = presses ? String(presses) : '';
    cell.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}: colour ${v}${presses ? `, press ${times(presses)}` : ''}`);
  }
  rovingFocus(board, focused);
  restoreFocus(board, focused);
  lightsDrawSteps();
}

function lightsDrawSteps() {
  const steps = lights.steps;
  const n = steps ? steps.presses.length : 0;
  const k = steps ? steps.k : 0;
  const can = !!steps;
  $('lights-first').disabled = !can || k === 0;
  $('lights-prev').disabled = !can || k === 0;
  $('lights-next').disabled = !can || k >= n;
  $('lights-last').disabled = !can || k >= n;
  if (!steps || n === 0) {
    $('lights-step').textContent = lights.answer && lights.answer.solvable ? 'Nothing to press' : 'No solution to step through';
  } else if (k === 0) {
    $('lights-step').textContent = `Start: ${plural(n, 'press', 'presses')} to go`;
  } else {
    $('lights-step').textContent = `Press ${k} of ${n}: ${cellName(steps.presses[k - 1])}${k === n ? ' — done' : ''}`;
  }
}

const goalWords = (goal) => (goal === 'any' ? 'any one colour' : `all ${goal}`);

function lightsDrawAnswer() {
  const a = lights.answer;
  const status = $('lights-status');
  if (!a) return;
  status.className = 'status';
  showCommand('lights', null);
  if (!a.solvable) {
    status.textContent = 'Impossible';
    status.classList.add('loss');
    $('lights-detail').textContent = `No press vector takes this board to ${goalWords(String(a.goal))}.`;
  } else if (a.rounds === 0) {
    status.textContent = `Already all ${a.colour}`;
    status.classList.add('win');
    $('lights-detail').textContent = 'Nothing to press.';
  } else {
    status.textContent = `${plural(a.rounds, 'press', 'presses')} to all ${a.colour}`;
    status.classList.add('win');
    const list = [...pressCounts(a.presses)].map(pressName).join(' ');
    const reached = a.goal === 'any' ? ` Colour reached: ${a.colour} (goal: any one colour).` : '';
    $('lights-detail').textContent = `Press ${list}. ${plural(a.optimal_sets, 'optimal press vector', 'optimal press vectors')}.${reached}`;
  }
  const moves = lights.allMoves ? a.moves : a.moves.slice(0, MOVES_SHOWN);
  $('lights-moves').replaceChildren(...moves.map((m) => {
    const better = a.solvable && m.rounds < a.rounds;
    const badge = m.rounds === null ? 'impossible' : plural(m.rounds, 'press', 'presses');
    return el('li', {}, el('button', {
      type: 'button',
      class: `move ${a.solvable ? (better ? 'win' : 'loss') : ''}`,
      'aria-label': `press ${cellName(m.cell)}: ${badge} after it`,
      onclick: () => lightsPlay(m.cell),
      onmouseenter: () => lightsHover(m.cell),
      onmouseleave: () => lightsHover(null),
      onfocus: () => lightsHover(m.cell),
      onblur: () => lightsHover(null),
    }, el('span', { text: cellName(m.cell) }), el('span', { class: 'badge', text: badge })));
  }));
  const more = $('lights-moves-all');
  more.hidden = a.moves.length <= MOVES_SHOWN;
  more.textContent = lights.allMoves ? `Show the best ${MOVES_SHOWN}` : `Show all ${a.moves.length}`;
}

function lightsHover(cell) {
  for (const node of $('lights-board').querySelectorAll('.cell')) {
    node.classList.toggle('hover', !!cell && Number(node.dataset.r) === cell[0] && Number(node.dataset.c) === cell[1]);
  }
}

async function lightsUpdate() {
  const token = ++lights.token;
  const text = lights.text();
  lights.steps = null;
  lights.shownOnce = true;
  saveHash();
  lightsDraw();
  lightsInfoUpdate();
  const goal = encodeURIComponent(lights.goal);
  const slow = slowNotice('lights-status', 'lights-detail', token, () => lights.token, 'Solving this board…');
  try {
    const answer = await cachedGet(`/api/v1/lights?board=${text}&${lights.variant()}&goal=${goal}`);
    clearTimeout(slow);
    if (token !== lights.token) return;
    lights.answer = answer;
    const start = lights.cells.slice();
    // Stepping applies the presses under the answer's own pattern.
    lights.steps = { boards: [start], presses: answer.presses || [], k: 0, pattern: answer.pattern };
  } catch (error) {
    clearTimeout(slow);
    if (token !== lights.token) return;
    lights.answer = null;
    showUnanswered('lights', error);
    $('lights-moves').replaceChildren();
    $('lights-moves-all').hidden = true;
  }
  lightsDrawAnswer();
  lightsDraw();
}

function lightsStep(target) {
  const steps = lights.steps;
  if (!steps) return;
  target = Math.max(0, Math.min(target, steps.presses.length));
  while (steps.boards.length <= target) {
    const k = steps.boards.length - 1;
    const next = lightsPress(steps.boards[k], steps.presses[k], steps.pattern);
    if (!next) return;
    steps.boards.push(next);
  }
  steps.k = target;
  lightsDraw();
}

/** Adopts the board shown while stepping, so that a click edits what is seen. */
function lightsAdoptShown() {
  if (lights.steps && lights.steps.k > 0) {
    lights.cells = lights.shown().slice();
    lights.steps = null;
  }
}

/** Plays a press on the board (the variant's pattern). */
function lightsPlay(cell) {
  lightsAdoptShown();
  const next = lightsPress(lights.cells, cell);
  if (!next) return;
  lights.cells = next;
  lightsUpdate();
}

function lightsClick(r, c) {
  if (lightsMode() === 'press') {
    lightsPlay([r, c]);
    return;
  }
  lightsAdoptShown();
  const i = r * lights.cols + c;
  lights.cells[i] = (lights.cells[i] + 1) % lights.colours;
  lightsUpdate();
}

/** A key on a cell: a digit (0 to 9, a to f) sets its colour. */
function lightsKey(event) {
  const target = event.target.closest('#lights-board [data-r]');
  if (!target || event.ctrlKey || event.altKey || event.metaKey || !/^[0-9a-f]$/i.test(event.key)) return;
  const v = Number.parseInt(event.key, 16);
  if (v >= lights.colours) return;
  event.preventDefault();
  lightsAdoptShown();
  lights.cells[Number(target.dataset.r) * lights.cols + Number(target.dataset.c)] = v;
  lightsUpdate();
}

/** The goal selector: every colour of the variant, and any. */
function lightsGoalOptions() {
  const select = $('lights-goal');
  const options = [];
  for (let d = 0; d < lights.colours; d++) options.push(el('option', { value: String(d), text: `all ${d}${d === 0 ? ' (off)' : ''}` }));
  options.push(el('option', { value: 'any', text: 'any one colour' }));
  select.replaceChildren(...options);
  select.value = lights.goal;
}

/** Shows the variant in the controls. */
function lightsControls() {
  $('lights-rows').value = String(lights.rows);
  $('lights-cols').value = String(lights.cols);
  $('lights-colours').value = String(lights.colours);
  $('lights-wrap').checked = lights.wrap;
  const preset = Object.hasOwn(LIGHTS_PRESETS, lights.pattern);
  $('lights-pattern').value = preset ? lights.pattern : 'custom';
  $('lights-stencil').hidden = preset;
  if (!preset && $('lights-stencil').value !== lights.pattern) $('lights-stencil').value = lights.pattern;
  lightsGoalOptions();
}

/** A new size: the cells that are on both boards are kept, new ones are 0. */
function lightsResize(rows, cols) {
  const cells = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) cells.push(r < lights.rows && c < lights.cols ? lights.cells[r * lights.cols + c] : 0);
  }
  lights.rows = rows;
  lights.cols = cols;
  lights.cells = cells;
  lights.allMoves = false;
}

/** A new variant from the controls: the board is kept (its colours taken mod K), the answers asked for. */
function lightsVariantChanged() {
  const int = (id, min, max, was) => Math.max(min, Math.min(max, Number.parseInt($(id).value, 10) || was));
  const rows = int('lights-rows', 1, LIGHTS_MAX_SIDE, lights.rows);
  const cols = int('lights-cols', 1, LIGHTS_MAX_SIDE, lights.cols);
  lightsAdoptShown();
  if (rows !== lights.rows || cols !== lights.cols) lightsResize(rows, cols);
  lights.colours = int('lights-colours', LIGHTS_MIN_COLOURS, LIGHTS_MAX_COLOURS, lights.colours);
  lights.cells = lights.cells.map((v) => v % lights.colours);
  lights.wrap = $('lights-wrap').checked;
  const choice = $('lights-pattern').value;
  if (choice !== 'custom') {
    lights.pattern = choice;
  } else if ($('lights-stencil').hidden) {
    // Custom chosen: start from the stencil of the pattern it was.
    $('lights-stencil').value = LIGHTS_PRESETS[lights.pattern] || lights.pattern;
    lights.pattern = $('lights-stencil').value;
  } else {
    lights.pattern = $('lights-stencil').value.trim();
  }
  const goal = $('lights-goal').value;
  lights.goal = goal === 'any' || Number(goal) < lights.colours ? goal : '0';
  lightsControls();
  lightsUpdate();
}

/**
 * The variant's structure (GET /api/v1/lights/info), asked for when the
 * size, colours, wrap or pattern change, not on every click.
 */
async function lightsInfoUpdate() {
  const key = `size=${sizeName(lights.rows, lights.cols)}&${lights.variant()}`;
  if (key === lights.infoKey) return;
  lights.infoKey = key;
  const token = ++lights.infoToken;
  const status = $('lights-info-status');
  status.textContent = `Reading the ${sizeLabel(lights.rows, lights.cols)} variant…`;
  status.classList.remove('error');
  $('lights-info').replaceChildren();
  $('lights-histogram').hidden = true;
  $('lights-quiet').replaceChildren();
  try {
    const info = await cachedGet(`/api/v1/lights/info?${key}`);
    if (token !== lights.infoToken) return;
    lightsDrawInfo(info);
  } catch (error) {
    if (token !== lights.infoToken) return;
    status.textContent = `No structure for this variant: ${error.message}`;
    status.classList.add('error');
  }
}

/** Groups of three digits, for counts read as strings (they may pass 2^53). */
const digits = (s) => s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function lightsDrawInfo(info) {
  const cells = info.rows * info.cols;
  const k = info.colours;
  $('lights-info-status').textContent =
    `${sizeLabel(info.rows, info.cols)}, ${k} colours, ${info.wrap ? 'on a torus' : 'clipped at the border'}, pattern ${info.pattern}.`;
  const fact = (id, term, value) => [el('dt', { text: term }), el('dd', { id, text: value })];
  const boards = `${k}^${cells}`;
  $('lights-info').replaceChildren(
    ...fact('lights-info-group', 'Quiet group', info.quiet_group),
    ...fact('lights-info-count', 'Quiet patterns', digits(info.quiet_count)),
    ...fact('lights-info-nullity', 'Nullity', info.nullity === null ? `— (${k} is not prime)` : String(info.nullity)),
    ...fact('lights-info-solvable', 'Solvable boards', `${digits(info.solvable_boards)} of ${boards}`),
    ...fact('lights-info-max', 'Most presses needed', info.max_presses === null
      ? `not counted (over 2^25 boards)` : plural(info.max_presses, 'press', 'presses')),
  );
  // The histogram: boards by the fewest presses they need.
  const histogram = $('lights-histogram');
  if (info.histogram) {
    const most = Math.max(...info.histogram);
    histogram.replaceChildren(...info.histogram.map((count, n) => {
      const bar = el('span', { class: 'bar', title: `${plural(count, 'board needs', 'boards need')} ${plural(n, 'press', 'presses')}` });
      bar.style.height = `${Math.max(count ? 4 : 0, Math.round((count / most) * 100))}%`;
      return el('span', { class: 'column' }, el('span', { class: 'track' }, bar), el('span', { class: 'n', text: String(n) }));
    }));
    histogram.setAttribute('aria-label', `Boards by the fewest presses to all 0: ${info.histogram.map((count, n) => `${n}: ${count}`).join(', ')}`);
    histogram.hidden = false;
  }
  // The generators, each a small grid of press counts.
  const shown = Math.min(info.quiet_generators.length, QUIET_SHOWN, Math.max(1, Math.floor(QUIET_CELLS / cells)));
  const grids = info.quiet_generators.slice(0, shown).map((text, i) => {
    const rows = text.split('/');
    const grid = el('div', { class: 'quiet-grid', role: 'img', 'aria-label': `quiet pattern ${i + 1}: ${text}` });
    grid.style.gridTemplateColumns = `repeat(${info.cols}, var(--q))`;
    grid.style.setProperty('--q', `clamp(0.2rem, calc(7rem / ${Math.max(info.rows, info.cols)}), 0.95rem)`);
    for (const row of rows) {
      for (const ch of row) {
        const v = Number.parseInt(ch, 16);
        grid.append(el('span', { class: `q c${v}`, 'data-v': String(v), text: v ? ch : '' }));
      }
    }
    return el('figure', { class: 'quiet-pattern' }, grid,
      el('figcaption', { text: `order ${info.generator_orders[i]}` }));
  });
  const rest = info.quiet_generators.length - shown;
  if (info.quiet_generators.length === 0) grids.push(el('p', { class: 'none', text: 'Only pressing nothing changes nothing: every solvable board has one answer.' }));
  if (rest > 0) grids.push(el('p', { class: 'none', text: `and ${rest} more` }));
  $('lights-quiet').replaceChildren(...grids);
}

function setupLights() {
  const board = $('lights-board');
  gridKeys(board);
  board.addEventListener('keydown', lightsKey);
  lightsControls();
  $('lights-clear').addEventListener('click', () => {
    lightsAdoptShown();
    lights.cells = lights.cells.map(() => 0);
    lightsUpdate();
  });
  $('lights-random').addEventListener('click', () => {
    lightsAdoptShown();
    lights.cells = lights.cells.map(() => Math.floor(Math.random() * lights.colours));
    lightsUpdate();
  });
  $('lights-first').addEventListener('click', () => lightsStep(0));
  $('lights-prev').addEventListener('click', () => lightsStep(lights.steps.k - 1));
  $('lights-next').addEventListener('click', () => lightsStep(lights.steps.k + 1));
  $('lights-last').addEventListener('click', () => lightsStep(Infinity));
  for (const id of ['lights-rows', 'lights-cols', 'lights-colours']) {
    $(id).addEventListener('change', lightsVariantChanged);
    $(id).addEventListener('keydown', (event) => {
      if (event.key === 'Enter') lightsVariantChanged();
    });
  }
  for (const id of ['lights-wrap', 'lights-pattern', 'lights-goal']) $(id).addEventListener('change', lightsVariantChanged);
  // A stencil is read once typing pauses (or on Enter).
  $('lights-stencil').addEventListener('input', () => {
    clearTimeout(lights.timer);
    lights.timer = setTimeout(lightsVariantChanged, 400);
  });
  $('lights-stencil').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      clearTimeout(lights.timer);
      lightsVariantChanged();
    }
  });
  $('lights-moves-all').addEventListener('click', () => {
    lights.allMoves = !lights.allMoves;
    lightsDrawAnswer();
  });
}

/** The fragment's Lights Out part: the board, then the variant's parameters that are not their defaults. */
function lightsHash() {
  let hash = `lights=${lights.text()}`;
  if (lights.colours !== 2) hash += `;colours=${lights.colours}`;
  if (lights.wrap) hash += ';wrap=true';
  if (lights.pattern !== 'plus') hash += `;pattern=${lights.pattern.replaceAll('#', '%23')}`;
  if (lights.goal !== '0') hash += `;goal=${lights.goal}`;
  return hash;
}

/** Reads `#lights=...` (see `lightsHash`); what cannot be read keeps its value. */
function readLightsHash(value) {
  const [board, ...parameters] = value.split(';');
  [lights.colours, lights.wrap, lights.pattern, lights.goal] = [2, false, 'plus', '0'];
  for (const parameter of parameters) {
    const [key, v] = [parameter.slice(0, parameter.indexOf('=')), parameter.slice(parameter.indexOf('=') + 1)];
    if (key === 'colours' && /^\d+$/.test(v) && Number(v) >= LIGHTS_MIN_COLOURS && Number(v) <= LIGHTS_MAX_COLOURS) lights.colours = Number(v);
    if (key === 'wrap') lights.wrap = v === 'true';
    if (key === 'pattern' && v) lights.pattern = v;
    if (key === 'goal' && /^(\d+|any)$/.test(v)) lights.goal = v;
  }
  const rows = board.split('/');
  if (rows.length <= LIGHTS_MAX_SIDE && rows[0].length >= 1 && rows[0].length <= LIGHTS_MAX_SIDE &&
    rows.every((r) => /^[0-9a-f]+$/i.test(r) && r.length === rows[0].length)) {
    [lights.rows, lights.cols] = [rows.length, rows[0].length];
    lights.cells = rows.join('').split('').map((ch) => Number.parseInt(ch, 16));
  }
  if (lights.goal !== 'any' && Number(lights.goal) >= lights.colours) lights.goal = '0';
}

// ---------------------------------------------------------------------------
// Two-player games of the catalogue's models (GET /api/v1/games, then
// GET /api/v1/solve): #game=NAME;size=RxC;OPTION=N;board=ROWS
//
// Nothing here names a game: the list, each game's default size and options
// come from /api/v1/games; the board is drawn from the position's text as
// the API writes it (rows joined by '/', a character a cell, '.' empty); a
// move is the API's text, and the cells it changes are found by comparing
// the position with the one after it (`positions=true`).

const game = {
  list: [], // the entries of /api/v1/games whose `solve` is not null
  name: null,
  rows: 3,
  cols: 3,
  options: {}, // name -> value, every option of the game
  board: null, // the position's text; null for the game's start
  answer: null,
  token: 0,
  history: [], // { before, move, by }: `before` the position's text before the move
  filter: null, // the moves that change a clicked cell, when several do
  error: null, // the cell a 400's line and column point at: { r, c }
  timer: null,
  retry: null,
  shownOnce: false,
  wanted: null, // the fragment's request, until the list of games is read
  loaded: false,
  entry() {
    return this.list.find((g) => g.name === this.name) || null;
  },
};

/** How long the view waits before asking again after a 429 (the game still being solved). */
const GAME_RETRY_MS = 1000;

/**
 * The cells of a position's text: `{ cells: [[ch...]...], rest: [line...] }`,
 * the `rows` lines of `cols` characters that are the board and any other line
 * (a game may say whose turn it is on a line of its own); `null` when no
 * `rows` consecutive lines of `cols` characters are found.
 */
function gameCells(text, rows, cols) {
  const lines = text.split(/\/|\n/);
  for (let i = 0; i + rows <= lines.length; i++) {
    const part = lines.slice(i, i + rows).map((line) => [...line]);
    if (part.every((row) => row.length === cols)) {
      return { cells: part, rest: [...lines.slice(0, i), ...lines.slice(i + rows)] };
    }
  }
  return null;
}

/** The value of a move for the player making it: the value after it is the opponent's. */
const moverValue = (value) => (value === 'lose' ? 'win' : value === 'win' ? 'lose' : 'draw');
/** The class of a value: win, loss or draw. */
const valueClass = (value) => (value === 'win' ? 'win' : value === 'lose' ? 'loss' : 'draw');
/** A move's badge, as `boardbase solve` words it: "wins in 3", "draws", "loses in 2". */
function gameMoveBadge(m) {
  const v = moverValue(m.value);
  if (v === 'draw') return 'draws';
  const verb = v === 'win' ? 'wins' : 'loses';
  return m.remoteness === null ? verb : `${verb} in ${m.remoteness + 1}`;
}

/** The fragment's game part: the game, its size and options, and the position (none for the start). */
function gameHash() {
  if (!game.name) return 'game';
  let hash = `game=${game.name};size=${sizeName(game.rows, game.cols)}`;
  for (const [name, value] of Object.entries(game.options)) hash += `;${name}=${value}`;
  if (game.board !== null) hash += `;board=${game.board}`;
  return hash;
}

/** Reads `#game=...` (see `gameHash`) into `game.wanted`, applied once the games are known. */
function readGameHash(value) {
  // `#game` alone: the view as it is.
  if (value === '') return;
  const [name, ...parameters] = value.split(';');
  const wanted = { name, size: null, options: {}, board: null };
  for (const parameter of parameters) {
    const at = parameter.indexOf('=');
    if (at < 0) continue;
    const [key, v] = [parameter.slice(0, at), parameter.slice(at + 1)];
    if (key === 'size') wanted.size = v;
    else if (key === 'board') wanted.board = v;
    else if (/^\d+$/.test(v)) wanted.options[key] = Number(v);
  }
  game.wanted = wanted;
  if (game.loaded) gameApplyWanted();
}

/** Sets the game up as the fragment asked (what the game lacks falls back to its defaults). */
function gameApplyWanted() {
  const wanted = game.wanted;
  game.wanted = null;
  if (!wanted && game.name) return;
  const entry = (wanted && game.list.find((g) => g.name === wanted.name)) || game.list[0];
  if (!entry) return;
  gameChoose(entry.name, false);
  if (!wanted || wanted.name !== entry.name) return;
  const size = /^(\d+)x(\d+)$/.exec(wanted.size || '');
  if (size && Number(size[1]) >= 1 && Number(size[2]) >= 1 && Number(size[1]) <= MAX_SIDE && Number(size[2]) <= MAX_SIDE) {
    [game.rows, game.cols] = [Number(size[1]), Number(size[2])];
  }
  for (const option of entry.solve.options) {
    if (Object.hasOwn(wanted.options, option.name)) game.options[option.name] = wanted.options[option.name];
  }
  game.board = wanted.board || null;
  gameControls();
}

/** Chooses a game: its default size and options, its start. */
function gameChoose(name, update) {
  const entry = game.list.find((g) => g.name === name);
  if (!entry) return;
  game.name = name;
  const { rows, cols } = parseSize(entry.solve.default_size);
  [game.rows, game.cols] = [rows, cols];
  game.options = Object.fromEntries(entry.solve.options.map((o) => [o.name, o.default]));
  game.board = null;
  game.history = [];
  game.answer = null;
  gameControls();
  if (update) gameUpdate();
}

/** Shows the game, its size and its options in the controls (an input for each option, from the API). */
function gameControls() {
  const entry = game.entry();
  const select = $('game-name');
  if (select.options.length !== game.list.length) {
    select.replaceChildren(...game.list.map((g) => el('option', { value: g.name, text: `${g.title} (${g.name})` })));
  }
  if (!entry) return;
  select.value = game.name;
  $('game-rows').value = String(game.rows);
  $('game-cols').value = String(game.cols);
  $('game-question').textContent = `${entry.title}: ${entry.question}. Sizes: ${entry.solve.default_size} by default, ` +
    `at most ${entry.solve.max_cells} cells.`;
  const box = $('game-options');
  const shown = [...box.querySelectorAll('input')].map((i) => i.dataset.option).join(',');
  if (shown !== entry.solve.options.map((o) => o.name).join(',')) {
    box.replaceChildren(...entry.solve.options.map((o) => el('label', { title: o.help },
      `${o.name} `,
      el('input', {
        type: 'number', id: `game-option-${o.name}`, 'data-option': o.name, min: String(o.min), max: String(o.max),
        inputmode: 'numeric', 'aria-label': `${o.name}: ${o.help} (${o.min} to ${o.max})`,
        onchange: gameOptionsChanged,
        onkeydown: (event) => {
          if (event.key === 'Enter') gameOptionsChanged();
        },
      }))));
  }
  for (const o of entry.solve.options) $(`game-option-${o.name}`).value = String(game.options[o.name]);
  box.hidden = entry.solve.options.length === 0;
}

/** A new size or option from the controls: the game's start on it. */
function gameOptionsChanged() {
  const entry = game.entry();
  if (!entry) return;
  const int = (id, min, max, was) => Math.max(min, Math.min(max, Number.parseInt($(id).value, 10) || was));
  const rows = int('game-rows', 1, MAX_SIDE, game.rows);
  const cols = int('game-cols', 1, MAX_SIDE, game.cols);
  const options = {};
  for (const o of entry.solve.options) options[o.name] = int(`game-option-${o.name}`, o.min, o.max, game.options[o.name]);
  const same = rows === game.rows && cols === game.cols && Object.entries(options).every(([k, v]) => game.options[k] === v);
  [game.rows, game.cols, game.options] = [rows, cols, options];
  gameControls();
  if (same) return;
  game.board = null;
  game.history = [];
  gameUpdate();
}

/** The solve request of the position shown. */
function gameUrl() {
  let url = `/api/v1/solve?game=${encodeURIComponent(game.name)}&size=${sizeName(game.rows, game.cols)}`;
  for (const [name, value] of Object.entries(game.options)) url += `&${encodeURIComponent(name)}=${value}`;
  if (game.board !== null) url += `&board=${encodeURIComponent(game.board)}`;
  return `${url}&positions=true`;
}

/** The cells each move changes (row-major indices), from the position after it. */
function gameChanges(answer) {
  const before = gameCells(answer.position, game.rows, game.cols);
  const out = new Map();
  for (const m of answer.moves) {
    const after = m.position ? gameCells(m.position, game.rows, game.cols) : null;
    const changed = [];
    if (before && after) {
      for (let r = 0; r < game.rows; r++) {
        for (let c = 0; c < game.cols; c++) if (before.cells[r][c] !== after.cells[r][c]) changed.push(r * game.cols + c);
      }
    }
    out.set(m, changed);
  }
  return out;
}

/**
 * The moves a click on each cell plays: of the moves that change the cell,
 * those that change the fewest cells (a stone placed, a square covered).
 */
function gameCellMoves(answer, changes) {
  const byCell = new Map();
  for (const m of answer.moves) {
    for (const i of changes.get(m)) {
      const list = byCell.get(i);
      if (!list || changes.get(list[0]).length > changes.get(m).length) byCell.set(i, [m]);
      else if (changes.get(list[0]).length === changes.get(m).length) list.push(m);
    }
  }
  return byCell;
}

/** The board of the text shown: the answer's position, or the text asked for while there is none. */
function gameShownText() {
  const a = game.answer;
  if (a) return a.position;
  return game.board;
}

function gameDraw() {
  const board = $('game-board');
  const focused = focusedCell(board);
  const text = gameShownText();
  const parsed = text === null ? null : gameCells(text, game.rows, game.cols);
  const a = game.answer;
  const changes = a ? gameChanges(a) : new Map();
  const byCell = a ? gameCellMoves(a, changes) : new Map();
  const last = game.history.length && a ? new Set(game.history[game.history.length - 1].changed) : new Set();
  const shape = sizeName(game.rows, game.cols);
  if (board.dataset.shape !== shape) {
    board.dataset.shape = shape;
    sizeBoard('view-game', game.rows, game.cols);
    board.style.gridTemplateColumns = `repeat(${game.cols}, var(--cell))`;
    board.replaceChildren();
    for (let r = 0; r < game.rows; r++) {
      const row = el('div', { role: 'row', class: 'contents' });
      for (let c = 0; c < game.cols; c++) {
        row.append(el('button', {
          type: 'button', class: 'cell', role: 'gridcell', 'data-r': r, 'data-c': c,
          onclick: () => gameClick(r, c),
          onmouseleave: () => gameHover(null),
        }, el('span', { class: 'piece' })));
      }
      board.append(row);
    }
  }
  board.hidden = !parsed && text !== null;
  const error = game.error;
  for (const cell of board.querySelectorAll('.cell')) {
    const r = Number(cell.dataset.r);
    const c = Number(cell.dataset.c);
    const i = r * game.cols + c;
    const v = parsed ? parsed.cells[r][c] : '.';
    const moves = byCell.get(i) || [];
    const best = moves[0];
    cell.dataset.v = v;
    cell.firstChild.textContent = v === '.' ? '' : v;
    cell.className = `cell${best ? ` move-${valueClass(moverValue(best.value))}` : ''}${last.has(i) ? ' last' : ''}` +
      `${error && error.r === r && error.c === c ? ' error' : ''}`;
    cell.onmouseenter = () => gameHover(best || null);
    let label = `row ${r + 1}, column ${c + 1}: ${v === '.' ? 'empty' : v}`;
    if (moves.length === 1) label += `; ${best.move} ${gameMoveBadge(best)}`;
    else if (moves.length > 1) label += `; ${moves.length} moves change it, the best ${best.move} ${gameMoveBadge(best)}`;
    if (error && error.r === r && error.c === c) label += '; the error is here';
    cell.setAttribute('aria-label', label);
    cell.title = moves.length ? moves.map((m) => `${m.move}: ${gameMoveBadge(m)}`).join('\n') : '';
  }
  rovingFocus(board, focused);
  restoreFocus(board, focused);
  // What the text holds besides the board (a game may say whose turn it is
  // on a line of its own), or all of it when it is not a board of this size.
  const rest = parsed ? parsed.rest.filter((line) => line !== '') : text === null ? [] : [text];
  $('game-caption').textContent = rest.length ? `${parsed ? 'Besides the board, the text says' : 'Not drawn'}: ${rest.join(' / ')}` : '';
  $('game-caption').hidden = rest.length === 0;
  const history = game.history.map((h, k) => `${k + 1}. ${h.by === 'engine' ? 'engine ' : ''}${h.move.move}`);
  $('game-history').textContent = history.length ? `Moves: ${history.join(' ')}` : 'No moves yet.';
  $('game-undo').disabled = game.history.length === 0;
  if (document.activeElement !== $('game-position')) $('game-position').value = text === null ? '' : text;
}

function gameHover(move) {
  const changed = new Set(move && game.answer ? gameChanges(game.answer).get(move) || [] : []);
  for (const node of $('game-board').querySelectorAll('.cell')) {
    node.classList.toggle('hover', changed.has(Number(node.dataset.r) * game.cols + Number(node.dataset.c)));
  }
}

/** The status line's words for a position's value (for the player to move). */
function gameStatus(a) {
  const over = a.moves.length === 0;
  if (a.value === 'draw') return over ? 'Game over: a draw' : 'Draw with perfect play';
  const win = a.value === 'win';
  if (over) return `Game over: the player to move has ${win ? 'won' : 'lost'}`;
  const n = a.remoteness === null ? '' : ` in ${plural(a.remoteness, 'ply', 'plies')}`;
  return `The player to move ${win ? 'wins' : 'loses'}${n}`;
}

function gameDrawAnswer() {
  const a = game.answer;
  const status = $('game-status');
  const list = $('game-moves');
  if (!a) return;
  status.className = `status ${valueClass(a.value)}`;
  status.textContent = gameStatus(a);
  // The position these words are about (for tools and tests).
  status.dataset.position = a.position;
  const count = (v) => a.moves.filter((m) => moverValue(m.value) === v).length;
  const remoteness = a.remoteness === null
    ? (a.value === 'draw' ? 'Neither player can force a win.' : 'The remoteness is unknown (values only).')
    : `Remoteness ${a.remoteness}: plies to the end with perfect play (the winner hurries, the loser resists).`;
  $('game-detail').textContent = a.moves.length
    ? `${remoteness} Moves: ${count('win')} winning, ${count('draw')} drawing, ${count('lose')} losing.`
    : `${remoteness} No move is left.`;
  $('game-moves-title').hidden = a.moves.length === 0;
  const shown = game.filter ? a.moves.filter((m) => game.filter.includes(m)) : a.moves;
  list.replaceChildren(...shown.map((m) => el('li', {}, el('button', {
    type: 'button',
    class: `move ${valueClass(moverValue(m.value))}`,
    'data-move': m.move,
    'aria-label': `${m.move}: ${gameMoveBadge(m)}`,
    onclick: () => gamePlay(m, 'you'),
    onmouseenter: () => gameHover(m),
    onmouseleave: () => gameHover(null),
    onfocus: () => gameHover(m),
    onblur: () => gameHover(null),
  }, el('span', { text: m.move }), el('span', { class: 'badge', text: gameMoveBadge(m) })))));
  $('game-filter').hidden = !game.filter;
  $('game-filter-text').textContent = game.filter ? `${plural(game.filter.length, 'move changes', 'moves change')} the cell clicked.` : '';
}

/** Where a 400's line and column point on the board typed, if on a cell. */
function gameErrorCell(text, line, column) {
  if (!text || !line || !column) return null;
  const lines = text.split('\n');
  let row = 0;
  for (let l = 0; l < line - 1 && l < lines.length; l++) row += lines[l].split('/').length;
  const here = lines[line - 1];
  if (here === undefined) return null;
  const before = here.slice(0, column - 1);
  const r = row + before.split('/').length - 1;
  const c = column - 1 - (before.lastIndexOf('/') + 1);
  return r < game.rows && c < game.cols ? { r, c } : null;
}

/** Asks for the position shown and draws the answer; `reply`: the user just moved, the engine may answer. */
async function gameUpdate(reply = false) {
  if (!game.name) return;
  const token = ++game.token;
  game.shownOnce = true;
  clearTimeout(game.timer);
  clearTimeout(game.retry);
  game.filter = null;
  game.error = null;
  delete $('game-status').dataset.position;
  saveHash();
  gameDraw();
  const entry = game.entry();
  const what = `${entry.title} ${sizeLabel(game.rows, game.cols)}`;
  const slow = slowNotice('game-status', 'game-detail', token, () => game.token,
    `Solving ${what} on the server (the first position of a game and size solves all of it)…`);
  const url = gameUrl();
  let attempt = 0;
  for (;;) {
    try {
      const answer = await cachedGet(url);
      clearTimeout(slow);
      if (token !== game.token) return;
      game.answer = answer;
      game.board = answer.position;
      break;
    } catch (error) {
      if (token !== game.token) return;
      if (error.status === 429) {
        // Still solving: the server finishes it for the next request.
        clearTimeout(slow);
        attempt += 1;
        const status = $('game-status');
        status.className = 'status';
        status.textContent = 'Still solving…';
        $('game-detail').textContent = `The server is still solving ${what} (${error.message}); asking again every second ` +
          `(attempt ${attempt + 1}).`;
        await new Promise((resolve) => {
          game.retry = setTimeout(resolve, GAME_RETRY_MS);
        });
        if (token !== game.token) return;
        continue;
      }
      clearTimeout(slow);
      game.answer = null;
      gameShowError(error);
      gameDraw();
      return;
    }
  }
  saveHash();
  gameDrawAnswer();
  gameDraw();
  // The engine answers a move the user just played (not a position undone to).
  if (reply && $('game-engine').checked && game.answer.moves.length > 0) {
    game.timer = setTimeout(gameEngine, 450);
  }
}

/** A refused position or setup: the API's message, the cell it points at, no moves. */
function gameShowError(error) {
  const status = $('game-status');
  const body = error.body || {};
  status.className = 'status loss';
  status.textContent = error.status === 400 ? 'Not a position of this game' : 'No answer';
  $('game-detail').textContent = error.message;
  game.error = gameErrorCell(game.board, body.line, body.column);
  $('game-moves').replaceChildren();
  $('game-moves-title').hidden = true;
  $('game-filter').hidden = true;
}

function gamePlay(move, by) {
  const a = game.answer;
  if (!a || !move.position) return;
  const changed = gameChanges(a).get(move) || [];
  game.history.push({ before: a.position, move, by, changed });
  game.board = move.position;
  game.answer = null;
  gameUpdate(by === 'you');
}

/** The engine plays the first move of the list: the best one. */
function gameEngine() {
  const a = game.answer;
  if (a && a.moves.length) gamePlay(a.moves[0], 'engine');
}

/** A click on a cell: the one move that changes it the least plays; several are listed to choose from. */
function gameClick(r, c) {
  const a = game.answer;
  if (!a) return;
  const moves = gameCellMoves(a, gameChanges(a)).get(r * game.cols + c) || [];
  if (moves.length === 1) {
    gamePlay(moves[0], 'you');
  } else if (moves.length > 1) {
    game.filter = moves;
    gameDrawAnswer();
  }
}

function gameUndo() {
  clearTimeout(game.timer);
  let entry = game.history.pop();
  if (entry && entry.by === 'engine' && game.history.length && $('game-engine').checked) entry = game.history.pop();
  if (entry) {
    game.board = entry.before;
    game.answer = null;
    gameUpdate();
  }
}

/** A position typed in (the game's text, rows joined by '/'). */
function gameSetTyped() {
  const text = $('game-position').value.trim();
  game.board = text === '' ? null : text;
  game.history = [];
  game.answer = null;
  gameUpdate();
}

function setupGame() {
  gridKeys($('game-board'));
  $('game-name').addEventListener('change', (event) => gameChoose(event.target.value, true));
  for (const id of ['game-rows', 'game-cols']) {
    $(id).addEventListener('change', gameOptionsChanged);
    $(id).addEventListener('keydown', (event) => {
      if (event.key === 'Enter') gameOptionsChanged();
    });
  }
  $('game-new').addEventListener('click', () => {
    game.board = null;
    game.history = [];
    game.answer = null;
    gameUpdate();
  });
  $('game-undo').addEventListener('click', gameUndo);
  $('game-engine-now').addEventListener('click', gameEngine);
  $('game-set').addEventListener('click', gameSetTyped);
  $('game-position').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') gameSetTyped();
  });
  $('game-filter-clear').addEventListener('click', () => {
    game.filter = null;
    gameDrawAnswer();
  });
}

/** Reads the catalogue's games; the view says so when it cannot. */
async function gameLoad() {
  try {
    const all = await api('/api/v1/games');
    game.list = all.filter((g) => g.solve);
  } catch (error) {
    $('game-status').className = 'status loss';
    $('game-status').textContent = 'No games';
    $('game-detail').textContent = `The list of games could not be read: ${error.message}`;
    return;
  }
  game.loaded = true;
  gameApplyWanted();
  if (current === 'game') gameUpdate();
}

// ---------------------------------------------------------------------------
// Start

function readHash() {
  const hash = decodeURIComponent(location.hash.slice(1));
  // `#name=value`, or `#name` alone for a view as it is.
  const split = hash.includes('=') ? hash.indexOf('=') : hash.length;
  const [name, value] = [hash.slice(0, split), hash.slice(split + 1)];
  if (!VIEWS.includes(name)) return;
  current = name;
  // A board of any size the explorer draws: rows of one length.
  const rows = value.split('/');
  const fits = (alphabet) => rows.length <= MAX_SIDE && rows[0].length >= 1 && rows[0].length <= MAX_SIDE &&
    rows.every((r) => alphabet.test(r) && r.length === rows[0].length);
  if (name === 'flip' && fits(/^[bw]+$/)) {
    [flip.rows, flip.cols] = [rows.length, rows[0].length];
    flip.cells = rows.join('').split('');
  }
  if (name === 'euler' && fits(/^[X.]+$/)) {
    [euler.rows, euler.cols] = [rows.length, rows[0].length];
    euler.cells = rows.join('').split('');
  }
  if (name === 'lights') readLightsHash(value);
  if (name === 'game') readGameHash(value);
  const m = /^(\d+)x(\d+):(.*)$/.exec(value);
  if (name === 'carcassonne' && m) {
    const [r, c] = [Number(m[1]), Number(m[2])];
    const tiles = m[3].split(',');
    if (r >= 1 && c >= 1 && r <= 16 && c <= 16 && tiles.length === r * c) {
      carc.rows = r;
      carc.cols = c;
      carc.tiles = tiles.map((t) => t.toUpperCase().slice(0, 4));
    }
  }
}

async function start() {
  readHash();
  setupTabs();
  setupFlip();
  setupEuler();
  setupCarcassonne();
  setupLights();
  setupGame();
  const games = gameLoad();
  try {
    const answered = await api('/api/v1/sizes');
    sizes = answered;
  } catch (_) {
    // Keep the 4×4 defaults.
  }
  await games;
  showHash();
  // A link pasted or followed on this page changes only the fragment.
  window.addEventListener('hashchange', () => {
    readHash();
    showHash();
  });
}

/** Draws and asks for what the fragment says (after `readHash`). */
function showHash() {
  flip.answer = null;
  flip.steps = null;
  euler.answer = null;
  euler.history = [];
  clearTimeout(euler.timer);
  flipSizeControls();
  fillSizes($('euler-size'), eulerGroups(euler.rows, euler.cols), euler.rows, euler.cols);
  $('carc-rows').value = String(carc.rows);
  $('carc-cols').value = String(carc.cols);
  eulerBuild();
  carcBuild();
  lights.answer = null;
  lights.steps = null;
  lights.shownOnce = false;
  lightsControls();
  lightsDraw();
  game.answer = null;
  game.history = [];
  game.shownOnce = false;
  clearTimeout(game.timer);
  gameDraw();
  showView(current, false);
  flipUpdate();
  eulerUpdate();
  carcCount();
}

start();
