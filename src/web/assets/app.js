// The Ferrum board page: draws what the server sends and sends what the user does.
// The server owns the game and the rules; this file only renders and asks.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
/** Evaluations beyond this are drawn at the graph's edge. */
const GRAPH_CAP = 1000;

let ws = null;
let state = null;
let info = null; // the last search line of the current or last search
let nbest = [];
let showNumbers = false; // the move number on every stone (a display choice, not sent)
let messageTimer = null;

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = restoreFromUrl;
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => showMessage("disconnected from the server; reload the page to reconnect", "closed");
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function receive(m) {
  switch (m.type) {
    case "state": {
      const started = m.thinking && !(state && state.thinking);
      if (started) { info = null; nbest = []; }
      state = m;
      render();
      break;
    }
    case "info": info = m; render(); break;
    case "nbest": nbest = m.lines; render(); break;
    case "best": log(`best move ${notation(m.move[0], m.move[1])}`); break;
    case "error": showMessage(m.message, "error"); break;
    case "engine": showMessage(`engine: ${m.message}`, m.status); break;
    case "log": log(m.line); break;
    case "record":
      $("record").value = m.text;
      if (m.format === "psq") download("game.psq", m.text);
      break;
  }
}

// ---- drawing ------------------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** Move-list notation: letter = x (a.., then aa..), number = y + 1. */
function notation(x, y) {
  const letter = x < 26 ? String.fromCharCode(97 + x) : "a" + String.fromCharCode(97 + x - 26);
  return `${letter}${y + 1}`;
}

function render() {
  if (!state) return;
  drawBoard();
  drawGraph();
  drawPanel();
}

function drawBoard() {
  const n = state.size;
  const svg = $("board");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `-1.2 -1.2 ${n + 1.4} ${n + 1.4}`);
  for (let i = 0; i < n; i++) {
    el("line", { class: "grid", x1: 0, y1: i, x2: n - 1, y2: i }, svg);
    el("line", { class: "grid", x1: i, y1: 0, x2: i, y2: n - 1 }, svg);
    el("text", { class: "label", x: i, y: -0.8 }, svg).textContent = notation(i, 0).replace(/\d+$/, "");
    el("text", { class: "label", x: -0.8, y: i }, svg).textContent = i + 1;
  }
  const taken = new Map(state.moves.map(([x, y], i) => [`${x},${y}`, i]));
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const cell = el("rect", { class: "cell", x: x - 0.5, y: y - 0.5, width: 1, height: 1, "data-x": x, "data-y": y }, svg);
      cell.addEventListener("click", () => send({ type: "play", x, y }));
    }
  }
  for (const [x, y, kind] of state.forbidden) {
    const g = el("g", { class: "forbid", "data-x": x, "data-y": y }, svg);
    el("title", {}, g).textContent = `forbidden for Black: ${kind}`;
    el("line", { x1: x - 0.2, y1: y - 0.2, x2: x + 0.2, y2: y + 0.2 }, g);
    el("line", { x1: x - 0.2, y1: y + 0.2, x2: x + 0.2, y2: y - 0.2 }, g);
  }
  state.moves.forEach(([x, y], i) => {
    const color = i % 2 === 0 ? "black" : "white";
    el("circle", { class: `stone ${color}`, cx: x, cy: y, r: 0.46, "data-x": x, "data-y": y, "data-n": i + 1 }, svg);
    // With numbers on, the last move's number is the marker (a dot would hide it).
    const lastClass = i === state.moves.length - 1 ? " last-number" : "";
    if (showNumbers) el("text", { class: `num ${color} move${lastClass}`, x, y }, svg).textContent = i + 1;
  });
  const last = state.moves[state.moves.length - 1];
  if (last && !showNumbers) el("circle", { class: "last", cx: last[0], cy: last[1], r: 0.1 }, svg);
  if (state.thinking && info && info.pv) {
    // The principal variation as numbered ghost stones, the side to move first.
    const first = state.to_move === "black" ? 0 : 1;
    info.pv.forEach(([x, y], i) => {
      if (taken.has(`${x},${y}`) || x >= n || y >= n) return;
      const color = (first + i) % 2 === 0 ? "black" : "white";
      const g = el("g", { class: "ghost", "data-x": x, "data-y": y }, svg);
      el("circle", { class: `stone ${color}`, cx: x, cy: y, r: 0.42 }, g);
      el("text", { class: `num ${color}`, x, y }, g).textContent = i + 1;
    });
  }
  for (const line of nbest) {
    const [x, y] = line.pv[0] || [];
    if (x === undefined || taken.has(`${x},${y}`)) continue;
    const g = el("g", { class: "cand", "data-x": x, "data-y": y }, svg);
    el("rect", { x: x - 0.4, y: y - 0.22, width: 0.8, height: 0.44, rx: 0.08 }, g);
    el("text", { x, y }, g).textContent = line.ev;
  }
  const win = state.result && state.result.line;
  if (win && win.length) {
    const [a, b] = [win[0], win[win.length - 1]];
    el("line", { class: "win", x1: a[0], y1: a[1], x2: b[0], y2: b[1] }, svg);
    for (const [x, y] of win) el("circle", { class: "win", cx: x, cy: y, r: 0.5 }, svg);
  }
}

function drawGraph() {
  const svg = $("graph");
  svg.replaceChildren();
  const w = 300, h = 80;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("preserveAspectRatio", "none");
  el("line", { class: "axis", x1: 0, y1: h / 2, x2: w, y2: h / 2 }, svg);
  const span = Math.max(state.evals.length - 1, 10);
  const points = [];
  state.evals.forEach((v, i) => {
    if (v === null || v === undefined) return;
    const c = Math.max(-GRAPH_CAP, Math.min(GRAPH_CAP, v));
    points.push(`${(i / span) * w},${h / 2 - (c / GRAPH_CAP) * (h / 2 - 2)}`);
  });
  if (points.length) el("polyline", { class: "line", points: points.join(" ") }, svg);
  el("title", {}, svg).textContent = "evaluation from Black's side, by move";
}

function drawPanel() {
  const s = state;
  const status = s.result
    ? s.result.text
    : `${s.moves.length} stones, ${s.to_move} to move` + (s.thinking ? ` (engine: ${s.thinking})` : "");
  $("status").textContent = status;
  $("status").dataset.stones = s.moves.length;
  $("status").dataset.thinking = s.thinking || "";
  $("engine-name").textContent = s.engine ? `(${s.engine})` : "";
  syncControl("size", s.size);
  syncControl("rule", s.rule);
  syncControl("black", s.players.black);
  syncControl("white", s.players.white);
  syncControl("time", s.time_ms);
  $("undo").disabled = !s.can_undo;
  $("redo").disabled = !s.can_redo;
  $("stop").disabled = !s.thinking;
  $("depth").textContent = info ? info.depth : "";
  $("ev").textContent = info ? info.ev : "";
  $("nodes").textContent = info ? info.nodes : "";
  $("pv").textContent = info ? info.pv.map(([x, y]) => notation(x, y)).join(" ") : "";
  $("candidates").replaceChildren(...nbest.map((l) => {
    const li = document.createElement("li");
    li.textContent = `${l.ev}  ${l.pv.map(([x, y]) => notation(x, y)).join(" ")}`;
    return li;
  }));
  const link = `#size=${s.size}&rule=${s.rule}&moves=${s.move_list}`;
  $("link").href = link;
  history.replaceState(null, "", link);
}

/** Shows the server's value when it changed, so that an edit the server has not
 *  seen yet (a size or rule for the next game) is not undone by an unrelated state. */
function syncControl(id, value) {
  const e = $(id);
  if (e.dataset.server !== String(value)) {
    e.value = value;
    e.dataset.server = value;
  }
}

function showMessage(text, kind) {
  const m = $("message");
  m.textContent = text;
  m.dataset.kind = kind;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => { m.textContent = ""; m.dataset.kind = ""; }, 8000);
}

function log(line) {
  const e = $("log");
  const lines = (e.textContent ? e.textContent.split("\n") : []).concat(line).slice(-40);
  e.textContent = lines.join("\n");
  e.scrollTop = e.scrollHeight;
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// ---- records and the URL ----------------------------------------------------------

/** `#size=15&rule=renju&moves=h8i9` (or the same as a query) restores a position. */
function restoreFromUrl() {
  const text = location.hash.length > 1 ? location.hash.slice(1) : location.search.slice(1);
  const p = new URLSearchParams(text);
  if (!p.has("moves") && !p.has("size")) return;
  const msg = { type: "load", format: "moves", text: p.get("moves") || "" };
  if (p.has("size")) msg.size = Number(p.get("size"));
  if (p.has("rule")) msg.rule = p.get("rule");
  send(msg);
}

function loadText(text) {
  text = text.trim();
  if (/^Piskvorky/i.test(text)) {
    send({ type: "load", format: "psq", text, rule: $("rule").value });
  } else {
    send({ type: "load", format: "moves", text, size: Number($("size").value), rule: $("rule").value });
  }
}

// ---- controls -------------------------------------------------------------------

function wire() {
  const click = (id, f) => $(id).addEventListener("click", f);
  click("new", () => {
    showMessage("", "");
    send({ type: "new", size: Number($("size").value), rule: $("rule").value });
  });
  click("undo", () => send({ type: "undo" }));
  click("redo", () => send({ type: "redo" }));
  click("swap", () => send({ type: "swap" }));
  click("go", () => send({ type: "go" }));
  click("analyse", () => send({ type: "analyse" }));
  click("nbest", () => send({ type: "nbest", n: 5 }));
  click("stop", () => send({ type: "stop" }));
  click("load", () => loadText($("record").value));
  click("save-psq", () => send({ type: "save", format: "psq" }));
  click("save-moves", () => send({ type: "save", format: "moves" }));
  const players = () => send({ type: "players", black: $("black").value, white: $("white").value });
  $("numbers").addEventListener("change", () => {
    showNumbers = $("numbers").checked;
    if (state) render();
  });
  $("black").addEventListener("change", players);
  $("white").addEventListener("change", players);
  $("time").addEventListener("change", () => send({ type: "time", ms: Number($("time").value) }));
  $("file").addEventListener("change", () => {
    const f = $("file").files[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => { $("record").value = reader.result; loadText(reader.result); };
    reader.readAsText(f);
  });
}

wire();
connect();
