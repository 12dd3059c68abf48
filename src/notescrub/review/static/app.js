// notescrub review page: the queue, one note with its spans, the surrogate preview.
// Every change is one POST /api/notes/N/edit with the note's version; a 409 means the
// note changed in the meantime and the page says who changed it and when.
"use strict";

const state = { session: null, typeCat: {}, note: null, sel: null, tokens: [], queue: [] };
const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: "the server answered " + res.status }; }
  return { status: res.status, data };
}

function showMessage(text, kind) {
  const m = $("message");
  m.replaceChildren();
  if (!text) { m.hidden = true; return; }
  m.className = kind || "";
  m.append(el("span", "", text));
  if (kind === "conflict") {
    const b = el("button", "", "reload");
    b.id = "btn-reload";
    b.addEventListener("click", () => openNote(state.note.nid));
    m.append(b);
  }
  m.hidden = false;
}

function reviewer() { return $("reviewer").value.trim(); }

// ---- queue ---------------------------------------------------------------------
async function loadQueue() {
  const { status, data } = await api("GET", "/api/queue");
  if (status !== 200) { showMessage(data.error, "error"); return; }
  state.queue = data.notes;
  const body = $("queue").tBodies[0];
  body.replaceChildren();
  let done = 0;
  for (const n of data.notes) {
    const tr = el("tr", n.status);
    tr.dataset.nid = n.nid;
    if (state.note && state.note.nid === n.nid) tr.classList.add("current");
    const risk = n.priority_source === "risk" ? n.priority.toFixed(2) : n.priority.toFixed(2) + "*";
    for (const v of [n.nid, n.id, risk, n.spans + (n.suspects ? " +" + n.suspects + "?" : ""), n.status]) {
      tr.append(el("td", "", String(v)));
    }
    tr.addEventListener("click", () => openNote(n.nid));
    body.append(tr);
    if (n.status === "reviewed") done += 1;
  }
  $("progress").textContent = done + " / " + data.notes.length + " reviewed";
}

// ---- one note ------------------------------------------------------------------
async function openNote(nid) {
  const { status, data } = await api("GET", "/api/notes/" + nid);
  if (status !== 200) { showMessage(data.error, "error"); return; }
  showMessage("");
  history.replaceState(null, "", "#note-" + nid);
  setNote(data);
  loadQueue();
  $("note-text").focus();
}

function setNote(note) {
  const keep = state.sel;
  state.note = note;
  state.tokens = [];
  const re = /\w+/gu;  // edges move by words; punctuation between them comes along
  let m;
  while ((m = re.exec(note.text)) !== null) state.tokens.push([m.index, m.index + m[0].length]);
  state.sel = note.spans.some((s) => s.sid === keep) ? keep : (note.spans.length ? note.spans[0].sid : null);
  render();
}

function catOf(type) { return state.typeCat[type] || "OTHER"; }

function spanLabel(s) {
  if (s.state === "rejected") return "\u2715 " + s.type;
  if (s.origin === "reviewer") return s.type + " +";
  const score = s.score === null || s.score === undefined ? "" : " " + Number(s.score).toFixed(2).replace(/^0/, "");
  return (s.type !== s.orig_type ? s.orig_type + "\u2192" : "") + s.type + score;
}

// Owner of every character: a live span wins over a rejected one, which wins over a suspect.
function owners(note) {
  const own = new Array(note.text.length).fill(null);
  (note.suspects || []).forEach((x, i) => {
    for (let c = x.start; c < x.end && c < own.length; c++) own[c] = { kind: "suspect", i };
  });
  for (const pass of ["rejected", "live"]) {
    for (const s of note.spans) {
      if ((s.state === "rejected") !== (pass === "rejected")) continue;
      for (let c = s.start; c < s.end; c++) own[c] = { kind: "span", sid: s.sid };
    }
  }
  return own;
}

function render() {
  const note = state.note;
  $("toolbar").hidden = false;
  $("note-title").textContent = "#" + note.nid + " " + note.id;
  $("note-status").textContent = note.status + " · version " + note.version +
    (note.updated_by ? " · last change by " + note.updated_by + " at " + note.updated_at : "");
  const view = $("note-text");
  view.replaceChildren();
  const own = owners(note);
  const bySid = new Map(note.spans.map((s) => [s.sid, s]));
  let i = 0;
  while (i < note.text.length) {
    const o = own[i];
    let j = i + 1;
    const same = (a, b) => (a === null && b === null) ||
      (a && b && a.kind === b.kind && a.sid === b.sid && a.i === b.i);
    while (j < note.text.length && same(own[j], o)) j++;
    const run = el("span", "run", note.text.slice(i, j));
    run.dataset.start = i;
    if (o && o.kind === "span") {
      const s = bySid.get(o.sid);
      const mark = el("mark", "phi cat-" + catOf(s.type) + " " + s.state + (s.origin === "reviewer" ? " added" : ""));
      if (s.score !== null && s.score !== undefined && s.score < 0.8 && s.state === "proposed") mark.classList.add("low");
      if (s.sid === state.sel) mark.classList.add("selected");
      mark.dataset.sid = s.sid;
      mark.title = s.type + (s.score !== null && s.score !== undefined ? " score " + s.score : "") + " · " + s.state;
      mark.append(run);
      if (j >= s.end) mark.append(el("span", "lbl", spanLabel(s)));
      mark.addEventListener("click", () => { state.sel = s.sid; render(); });
      view.append(mark);
    } else if (o && o.kind === "suspect") {
      const x = note.suspects[o.i];
      const w = el("span", "suspect");
      w.title = "suspect: untagged, " + (x.type || "PHI") + "? p=" + Number(x.score).toFixed(2);
      w.append(run);
      w.addEventListener("click", () => selectRange(x.start, x.end, x.type));
      view.append(w);
    } else {
      view.append(run);
    }
    i = j;
  }
  renderSelection();
  renderPreview();
}

function renderSelection() {
  const s = state.note.spans.find((x) => x.sid === state.sel);
  const info = $("span-info");
  if (!s) { info.textContent = "No span selected: select text and press n to add one."; return; }
  info.textContent = "span " + s.sid + ": " + s.type + " (" + s.state + ", " + s.origin +
    (s.score !== null && s.score !== undefined ? ", score " + s.score : "") + ") at " + s.start + "-" + s.end;
  $("type-select").value = s.type;
}

function renderPreview() {
  const p = state.note.preview;
  const view = $("preview");
  view.replaceChildren();
  $("preview-title").hidden = false;
  let at = 0;
  for (const s of p.spans) {
    if (s.start > at) view.append(document.createTextNode(p.text.slice(at, s.start)));
    const m = el("mark", "cat-" + catOf(s.type), p.text.slice(s.start, s.end));
    m.title = s.type;
    view.append(m);
    at = s.end;
  }
  view.append(document.createTextNode(p.text.slice(at)));
}

// ---- text selection -> offsets ---------------------------------------------------
function textOffset(node, off) {
  const host = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
  const run = host && host.closest ? host.closest(".run") : null;
  if (run && node.nodeType === Node.TEXT_NODE) return Number(run.dataset.start) + off;
  const point = document.createRange();
  point.setStart(node, off);
  for (const r of $("note-text").querySelectorAll(".run")) {
    if (point.comparePoint(r, 0) >= 0) return Number(r.dataset.start);
  }
  return state.note.text.length;
}

function selectionOffsets() {
  const sel = window.getSelection();
  if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const r = sel.getRangeAt(0);
  if (!$("note-text").contains(r.commonAncestorContainer)) return null;
  const a = textOffset(r.startContainer, r.startOffset);
  const b = textOffset(r.endContainer, r.endOffset);
  return a < b ? [a, b] : null;
}

function selectRange(start, end, type) {
  for (const r of $("note-text").querySelectorAll(".run")) {
    const s = Number(r.dataset.start), e = s + r.textContent.length;
    if (s <= start && start < e) {
      const last = [...$("note-text").querySelectorAll(".run")].find(
        (x) => Number(x.dataset.start) < end && end <= Number(x.dataset.start) + x.textContent.length);
      if (!last) return;
      window.getSelection().setBaseAndExtent(r.firstChild, start - s, last.firstChild, end - Number(last.dataset.start));
      if (type && state.typeCat[type]) $("add-type").value = type;
      return;
    }
  }
}

// ---- edits ---------------------------------------------------------------------
async function edit(action, args) {
  if (!state.note) return;
  if (!reviewer()) { showMessage("Enter your name as reviewer first.", "error"); $("reviewer").focus(); return; }
  const { status, data } = await api("POST", "/api/notes/" + state.note.nid + "/edit",
    { version: state.note.version, reviewer: reviewer(), action, args: args || {} });
  if (status === 200) {
    showMessage("");
    if (action === "add") state.sel = Math.max(...data.spans.map((s) => s.sid));
    setNote(data);
    loadQueue();
  } else if (status === 409) {
    showMessage("Changed by " + (data.by || "someone") + " at " + (data.at || "?") +
      " — reload to see their changes (yours was not saved).", "conflict");
  } else {
    showMessage(data.error || ("error " + status), "error");
  }
}

function selected() { return state.note && state.note.spans.find((s) => s.sid === state.sel); }

function moveEdge(which) {
  const s = selected();
  if (!s) return;
  const t = state.tokens;
  let start = s.start, end = s.end;
  if (which === "grow-left") { const k = t.filter((x) => x[0] < s.start).pop(); if (k) start = k[0]; }
  if (which === "shrink-left") { const k = t.find((x) => x[0] > s.start && x[0] < s.end); if (k) start = k[0]; }
  if (which === "grow-right") { const k = t.find((x) => x[1] > s.end); if (k) end = k[1]; }
  if (which === "shrink-right") { const k = t.filter((x) => x[1] < s.end && x[1] > s.start).pop(); if (k) end = k[1]; }
  if (start !== s.start || end !== s.end) edit("extent", { sid: s.sid, start, end });
}

function addSelection() {
  const off = selectionOffsets();
  if (!off) { showMessage("Select some text of the note first.", "error"); return; }
  edit("add", { start: off[0], end: off[1], type: $("add-type").value });
  window.getSelection().removeAllRanges();
}

function step(delta) {
  const spans = state.note ? state.note.spans : [];
  if (!spans.length) return;
  const i = spans.findIndex((s) => s.sid === state.sel);
  state.sel = spans[(i + delta + spans.length) % spans.length].sid;
  render();
}

function nextOpen() {
  const open = state.queue.filter((n) => n.status !== "reviewed" && (!state.note || n.nid !== state.note.nid));
  if (open.length) openNote(open[0].nid);
}

function onKey(ev) {
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const s = selected();
  const keys = {
    j: () => step(1), k: () => step(-1),
    a: () => s && edit("accept", { sid: s.sid }),
    x: () => s && edit("reject", { sid: s.sid }),
    t: () => $("type-select").focus(),
    T: () => $("add-type").focus(),
    n: addSelection,
    "[": () => moveEdge("grow-left"), "]": () => moveEdge("shrink-left"),
    "{": () => moveEdge("shrink-right"), "}": () => moveEdge("grow-right"),
    r: () => edit("reviewed", {}), u: () => edit("undo", {}), ".": nextOpen,
  };
  if (keys[ev.key] && state.note) { ev.preventDefault(); keys[ev.key](); }
}

async function init() {
  const { status, data } = await api("GET", "/api/session");
  if (status !== 200) { showMessage(data.error, "error"); return; }
  state.session = data;
  const select = $("type-select");
  for (const target of [select, $("add-type")]) {
    for (const [cat, types] of Object.entries(data.types)) {
      const group = el("optgroup");
      group.label = cat;
      for (const t of types) { state.typeCat[t] = cat; const o = el("option", "", t); o.value = t; group.append(o); }
      target.append(group);
    }
  }
  $("reviewer").value = localStorage.getItem("notescrub-reviewer") || data.reviewer || "";
  $("reviewer").addEventListener("change", () => localStorage.setItem("notescrub-reviewer", reviewer()));
  $("model").textContent = data.model ? "model: " + data.model : "";
  select.addEventListener("change", () => { const s = selected(); if (s) edit("retype", { sid: s.sid, type: select.value }); });
  const clicks = {
    "btn-accept": () => selected() && edit("accept", { sid: state.sel }),
    "btn-reject": () => selected() && edit("reject", { sid: state.sel }),
    "btn-add": addSelection, "btn-reviewed": () => edit("reviewed", {}), "btn-undo": () => edit("undo", {}),
    "btn-grow-left": () => moveEdge("grow-left"), "btn-shrink-left": () => moveEdge("shrink-left"),
    "btn-grow-right": () => moveEdge("grow-right"), "btn-shrink-right": () => moveEdge("shrink-right"),
  };
  for (const [id, fn] of Object.entries(clicks)) {
    // keep the text selection when a toolbar button is pressed (add selection)
    $(id).addEventListener("mousedown", (ev) => ev.preventDefault());
    $(id).addEventListener("click", fn);
  }
  document.addEventListener("keydown", onKey);
  await loadQueue();
  const hash = Number(location.hash.replace("#note-", ""));
  if (hash) openNote(hash);
}

document.addEventListener("DOMContentLoaded", init);
