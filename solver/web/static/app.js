// The page of `rummisolve serve`: the position entered by tapping, sent to POST /api/hint
// as a board file's text, and the answer shown as `hint` shows it. No library, no build.
"use strict";

const COLOUR_NAMES = { K: "black", R: "red", O: "orange", B: "blue" };
const STORE = "rummisolve-position";
// Every change of the position, to undo and redo, kept across a reload as the position is.
const HISTORY = "rummisolve-history";
const MOST_UNDONE = 200;

// The position: table sets and rack as tile words ("R3", "J"), where taps go, the colour.
let state = loadState();
let history = loadHistory();
let settings = null;
// While the server thinks: Best move waits for its answer.
let thinking = false;

// `profile`: the rules profile chosen on the page, for a server of `server`'s rules (its
// `/api/settings` words): a server started with other rules is the first choice again.
// `selected`: the tile chosen to change ({where, at}), and what a key then does with it
// (`mode`: "replace" it, or put the tile "before" it).
function emptyState() {
  return {
    sets: [], rack: [], target: "rack", colour: "R", opened: true, profile: null, server: null,
    selected: null, mode: "replace",
  };
}

function loadState() {
  const saved = loadStored(STORE);
  if (saved && Array.isArray(saved.sets) && Array.isArray(saved.rack)) {
    return Object.assign(emptyState(), saved, { selected: null });
  }
  return emptyState();
}

function loadHistory() {
  const saved = loadStored(HISTORY);
  if (saved && Array.isArray(saved.undo) && Array.isArray(saved.redo)) return saved;
  return { undo: [], redo: [] };
}

// A stored value that does not read back is dropped.
function loadStored(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch (error) {
    return null;
  }
}

function saveState() {
  try {
    localStorage.setItem(STORE, JSON.stringify(state));
    localStorage.setItem(HISTORY, JSON.stringify(history));
  } catch (error) {
    // Private browsing: the position lives as long as the page.
  }
}

// The position as undo keeps it: what is sent, and nothing of where taps go.
function snapshot() {
  return { sets: state.sets.map((tiles) => tiles.slice()), rack: state.rack.slice(), opened: state.opened };
}

function restore(shot) {
  Object.assign(state, shot, { selected: null });
  if (state.target !== "rack" && !state.sets[state.target]) state.target = "rack";
}

// A change of the position: undoable, and the answer shown (of the old one) taken away.
function change(edit) {
  history.undo.push(snapshot());
  if (history.undo.length > MOST_UNDONE) history.undo.shift();
  history.redo = [];
  edit();
  hideAnswer();
  redraw();
}

// Undo (from `undo` to `redo`) or redo (the other way).
function travel(from, to) {
  if (from.length === 0) return;
  to.push(snapshot());
  restore(from.pop());
  hideAnswer();
  redraw();
}

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A tile word: "R5", "J", or "J=K5" (a joker of the table saying what it stands for),
// as said aloud: "red 5", "joker, standing for black 5".
function spoken(word) {
  const [face, stands] = word.split("=");
  const name = (tile) => COLOUR_NAMES[tile[0]] + " " + tile.slice(1);
  return face === "J" ? "joker" + (stands ? ", standing for " + name(stands) : "") : name(face);
}

// A tile as a person sees it: the number in its colour, or a joker; an image to a screen
// reader, named as said aloud (a `button` where a tap takes it out).
function tileChip(word, fromRack, tag = "span") {
  const [face, stands] = word.split("=");
  const joker = face === "J";
  const chip = el(tag, "tile " + (joker ? "joker" : "c-" + face[0]), joker ? "J" : face.slice(1));
  if (fromRack) chip.classList.add("from-rack");
  chip.title = spoken(word);
  if (tag === "span") {
    chip.setAttribute("role", "img");
    chip.setAttribute("aria-label", spoken(word) + (fromRack ? ", from your rack" : ""));
  }
  if (stands) chip.dataset.stands = stands;
  chip.dataset.tile = word;
  return chip;
}

function tileRow(words, marked) {
  const row = el("div", "tiles");
  const left = marked ? marked.slice() : [];
  for (const word of words) {
    const at = left.indexOf(word.split("=")[0]);
    if (at >= 0) left.splice(at, 1);
    row.append(tileChip(word, at >= 0));
  }
  return row;
}

// A set's tile words with each joker saying what it stands for (`stand_for` of the answer).
function declared(words, standFor) {
  const roles = (standFor || []).slice();
  return words.map((word) => (word === "J" && roles.length ? "J=" + roles.shift() : word));
}

// The position and the keypad, drawn again from `state` after every tap. Keyboard focus
// on the position stays where it was (a tile taken out: on the next one, else the one
// before, else its place's button).
function render() {
  const focused = document.activeElement ? document.activeElement.dataset.key : undefined;
  if (state.selected && !selectedWord()) state.selected = null;
  const sets = $("sets");
  sets.replaceChildren();
  state.sets.forEach((tiles, index) => sets.append(editableRow(tiles, index)));
  if (state.sets.length === 0) {
    sets.append(el("p", "empty", "No sets yet: + New set, then tap colour and number."));
  }
  fillPlace($("rack"), "rack", state.rack, "Your rack", "Tap Rack, then the tiles you hold.");
  for (const key of document.querySelectorAll("[data-colour]")) {
    key.setAttribute("aria-pressed", String(key.dataset.colour === state.colour));
  }
  for (const key of document.querySelectorAll("[data-number]")) {
    key.setAttribute("aria-label", COLOUR_NAMES[state.colour] + " " + key.dataset.number);
  }
  $("numbers").dataset.colour = state.colour;
  $("opened").checked = state.opened;
  $("to-rack").classList.toggle("active", state.target === "rack" && !state.selected);
  $("solve").disabled = thinking || !solvable();
  $("undo").disabled = history.undo.length === 0;
  $("redo").disabled = history.redo.length === 0;
  renderEditBar();
  if (focused) {
    const [kind, where, position] = focused.split(":");
    const before = kind === "tile" ? `[data-key="tile:${where}:${Number(position) - 1}"]` : null;
    const again = document.querySelector(`[data-key="${focused}"]`)
      || (before && document.querySelector(before)) || pickOf(where);
    if (again) again.focus({ preventScroll: true });
  }
  measureKeypad();
  saveState();
}

// The button that makes a place (a set's index, or "rack") where taps go.
function pickOf(where) {
  return document.querySelector(`[data-key="pick:${where}"]`);
}

// After a tap on the position or the keypad: drawn again, and where taps go brought on
// screen (below the header, above the keypad), so that the player sees each tile come;
// not under an answer, which a tap on the table beside it must not scroll away.
function redraw() {
  render();
  if (document.body.classList.contains("answering")) return;
  const where = state.target === "rack"
    ? $("rack")
    : $("sets").querySelector(`[data-where="${state.target}"]`);
  if (where) where.scrollIntoView({ block: "nearest" });
}

function editableRow(tiles, index) {
  const row = el("div", "row target");
  row.dataset.where = String(index);
  const label = el("span", "label", String(index + 1));
  label.setAttribute("aria-hidden", "true"); // its button says it
  fillPlace(row, index, tiles, "Set " + (index + 1), "tap tiles in", [label]);
  row.addEventListener("click", () => pickPlace(index));
  return row;
}

function pickPlace(where) {
  state.target = where;
  state.selected = null;
  redraw();
}

// A place taps go to (`where`: a set's index, or "rack"), as a group named for it: first
// a button stretched over the whole row, which makes it where taps go (a tap anywhere on
// the row, or Enter or Space), then what `shown` holds, then its tiles, each a button
// that selects it (to delete, replace or put a tile before it).
function fillPlace(row, where, tiles, name, empty, shown = []) {
  const pick = el("button", "pick");
  pick.type = "button";
  pick.dataset.key = "pick:" + where;
  pick.setAttribute("aria-label", name + ": tap tiles in");
  pick.setAttribute("aria-pressed", String(state.target === where && !state.selected));
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", name);
  row.classList.toggle("active", state.target === where && !state.selected);
  row.replaceChildren(pick, ...shown, ...tiles.map((word, i) => selectableChip(word, where, i, name)));
  if (tiles.length === 0) row.append(el("span", "empty", empty));
}

function isSelected(where, at) {
  return state.selected !== null && state.selected.where === where && state.selected.at === at;
}

function selectableChip(word, where, at, place) {
  const chip = tileChip(word, false, "button");
  chip.type = "button";
  chip.dataset.key = "tile:" + where + ":" + at;
  chip.setAttribute("aria-label", spoken(word) + " in " + place.toLowerCase());
  chip.setAttribute("aria-pressed", String(isSelected(where, at)));
  chip.classList.toggle("selected", isSelected(where, at));
  chip.addEventListener("click", (event) => {
    event.stopPropagation();
    hideAnswer(); // the keypad, and what it does with the tile, come back
    state.target = where;
    state.selected = isSelected(where, at) ? null : { where, at };
    state.mode = "replace";
    redraw();
  });
  return chip;
}

function targetTiles(target) {
  if (target === "rack" || !state.sets[target]) {
    state.target = "rack";
    return state.rack;
  }
  return state.sets[target];
}

function selectedWord() {
  const { where, at } = state.selected;
  const tiles = where === "rack" ? state.rack : state.sets[where];
  return tiles ? tiles[at] : undefined;
}

// A tile key: the tile replaces the selected one, or goes before it (the selection
// staying on it, for the next), or at the end of where taps go.
function addTile(word) {
  change(() => {
    const chosen = state.selected;
    if (chosen === null) {
      targetTiles(state.target).push(word);
    } else if (state.mode === "replace") {
      targetTiles(chosen.where)[chosen.at] = word;
      state.selected = null;
    } else {
      targetTiles(chosen.where).splice(chosen.at, 0, word);
      chosen.at += 1;
    }
  });
}

function deleteTile() {
  change(() => {
    if (state.selected) {
      targetTiles(state.selected.where).splice(state.selected.at, 1);
      state.selected = null;
    } else {
      targetTiles(state.target).pop();
    }
  });
}

// A group's colours that none of its tiles has: what its joker may be named; none for a
// run (its joker is the tile of its place) or a set of a joker and jokers.
function missingColours(tiles) {
  const faces = tiles.map((word) => word.split("=")[0]).filter((face) => face !== "J");
  const numbers = new Set(faces.map((face) => face.slice(1)));
  const colours = faces.map((face) => face[0]);
  if (faces.length === 0 || numbers.size !== 1 || new Set(colours).size !== colours.length) return [];
  const number = faces[0].slice(1);
  return Object.keys(COLOUR_NAMES).filter((c) => !colours.includes(c)).map((c) => c + number);
}

// The bar over the keypad while a tile is selected: what it is, and what a tap does.
function renderEditBar() {
  const bar = $("edit-bar");
  bar.hidden = state.selected === null;
  if (bar.hidden) return;
  const word = selectedWord();
  const before = state.mode === "before";
  $("edit-what").textContent = spoken(word) + ": tap a tile key to "
    + (before ? "put it before this one" : "put it in this one's place");
  $("replace").setAttribute("aria-pressed", String(!before));
  $("before").setAttribute("aria-pressed", String(before));
  const names = $("name-joker");
  const { where, at } = state.selected;
  const group = where === "rack" || word.split("=")[0] !== "J" ? [] : missingColours(state.sets[where]);
  names.replaceChildren(...group.map((tile) => jokerName(where, at, tile)));
  if (group.length) names.append(jokerName(where, at, null));
  names.hidden = group.length === 0;
}

// A button naming the selected table joker (`J=O7`), or leaving it unnamed (`tile` null).
function jokerName(where, at, tile) {
  const word = tile ? "J=" + tile : "J";
  const button = el("button", "wide name", tile ? "J=" + tile : "J, any");
  button.type = "button";
  button.setAttribute("aria-label", tile ? "joker stands for " + spoken(tile) : "joker stands for any colour it lacks");
  button.setAttribute("aria-pressed", String(state.sets[where][at] === word));
  button.addEventListener("click", () => change(() => {
    state.sets[where][at] = word;
  }));
  return button;
}

function newSet() {
  state.selected = null;
  const empty = state.sets.findIndex((s) => s.length === 0);
  if (empty >= 0) {
    state.target = empty;
  } else {
    state.sets.push([]);
    state.target = state.sets.length - 1;
  }
  redraw();
}

function solvable() {
  return state.rack.length > 0 || state.sets.some((s) => s.length);
}

// The board file the API reads, and which line is which set (its problems name lines).
function boardFile() {
  const lines = [];
  const places = {};
  const sent = [];
  const defaultProfile = settings ? settings.rules.profile : "official";
  if (state.profile && state.profile !== defaultProfile) lines.push("rules: " + state.profile);
  if (!state.opened) lines.push("opened: no");
  lines.push("table:");
  state.sets.forEach((tiles, index) => {
    if (tiles.length === 0) return;
    lines.push(tiles.join(" "));
    places[lines.length] = "Set " + (index + 1);
    sent.push(tiles.slice());
  });
  lines.push("rack: " + state.rack.join(" "));
  places[lines.length] = "Rack";
  lines.forEach((line, i) => {
    if (line.startsWith("rules:") || line.startsWith("opened:")) places[i + 1] = "Rules";
  });
  return { text: lines.join("\n") + "\n", places, sent };
}

// The keypad stays live while the server thinks: a position changed meanwhile is asked
// again, so that the answer shown is always the position's on the screen.
async function solve() {
  if (thinking) return;
  thinking = true;
  const button = $("solve");
  button.disabled = true;
  button.textContent = "Thinking…";
  hideAnswer();
  try {
    let board, response, reply;
    do {
      board = boardFile();
      response = await fetch("api/hint", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ board: board.text }),
      });
      const status = response.status + " " + response.statusText;
      reply = await response.json().catch(() => ({ error: "The server answered " + status }));
    } while (boardFile().text !== board.text && solvable());
    if (boardFile().text !== board.text) {
      return; // the position was cleared meanwhile: nothing to answer
    }
    if (response.ok) {
      showAnswer(reply, board.sent);
    } else if (response.status === 422) {
      showProblems("This position cannot be played", reply, board.places);
    } else {
      showProblems("No answer", reply, {}); // the server's trouble, not the tiles'
    }
  } catch (error) {
    const down = "No answer from the server: is rummisolve serve still running?";
    showProblems("No answer", { error: down }, {});
  } finally {
    thinking = false;
    button.textContent = "Best move";
    render();
  }
}

function showProblems(title, reply, places) {
  const box = $("problems");
  box.replaceChildren(el("h2", "", title));
  const list = el("ul");
  const problems = Array.isArray(reply.problems) ? reply.problems : [];
  for (const problem of problems) {
    const where = places[problem.line];
    list.append(el("li", "", (where ? where + ": " : "") + problem.message));
  }
  if (problems.length === 0) list.append(el("li", "", reply.error || "The server refused it."));
  if (reply.more_problems) list.append(el("li", "", "… and " + reply.more_problems + " more"));
  box.append(list);
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

function hideAnswer() {
  $("answer").hidden = true;
  $("problems").hidden = true;
  document.body.classList.remove("answering");
}

function points(count) {
  return count === 1 ? "1 point" : count + " points";
}

function headline(reply) {
  if (reply.tiles_played > 0) {
    const tiles = reply.tiles_played === 1 ? "1 tile" : reply.tiles_played + " tiles";
    // Before the meld, what the sets laid are worth as one (a joker at its tile), as hint says.
    if (typeof reply.meld_value === "number") {
      const needed = reply.rules.initial_meld;
      return "Play " + tiles + ", an initial meld worth " + points(reply.meld_value) + " (" + needed + " needed)";
    }
    return "Play " + tiles + " (" + points(reply.value_played) + ")";
  }
  if (reply.status === "feasible") return "No move found within the time limit";
  if (!state.opened) {
    return "No move: no initial meld worth " + points(reply.rules.initial_meld) + "; draw a tile.";
  }
  return "No move: draw a tile.";
}

// What became of a set, as `hint` says it: stays, grows, new, split or rebuilt.
function explain(step, sent) {
  const shown = (tiles) => tiles.join(" ");
  const whole = (source) => "[" + shown(sent[source.set] || source.tiles) + "]";
  if (step.action === "keep") return "stays";
  if (step.action === "new") return "new, from the rack";
  if (step.action === "extend") return whole(step.from_table[0]) + " + " + shown(step.from_rack);
  if (step.from_table.length === 1 && step.from_rack.length === 0) {
    return "split off " + whole(step.from_table[0]);
  }
  const parts = step.from_table.map((source) => shown(source.tiles) + " of " + whole(source));
  if (step.from_rack.length) parts.push(shown(step.from_rack) + " from the rack");
  return "rebuilt: " + parts.join(", ");
}

// Text only for a screen reader, where the page draws tiles.
function unseen(text) {
  return el("span", "sr", text);
}

// A set as it lies on the table: its tiles on a patch of felt.
function feltSet(words, marked, tag = "span") {
  const set = tileRow(words, marked);
  const patch = el(tag, "set");
  patch.append(...set.childNodes);
  return patch;
}

// The words a step is drawn with: "swap" as `hint` says a replace.
const VERBS = { replace: "swap", take: "take", split: "split", add: "add", lay: "lay" };

// The tiles an add or a lay takes, with a caption under them for each copy it names
// (`copies`: where copies alike in the hand could be mistaken): "B7 from [B6 B7 B8]",
// the set its take took it from, as it lay then.
function withCopies(tiles, action, actions) {
  const copies = Array.isArray(action.copies) ? action.copies : [];
  if (copies.length === 0) return tiles;
  const named = el("span", "named");
  named.append(tiles);
  for (const copy of copies) {
    const take = actions[copy.take];
    const from = take ? " from [" + take.set.join(" ") + "]" : "";
    named.append(el("span", "copy-from", copy.tile + from));
  }
  return named;
}

// One step at the table, drawn: what is done, with which tiles, and the set(s) it makes
// (the rest, for a take); its text (as `hint` prints it) for a screen reader.
function actionItem(action, actions) {
  const item = el("li", "step");
  item.append(unseen(action.text));
  const drawn = el("div", "drawn");
  drawn.setAttribute("aria-hidden", "true");
  drawn.append(el("span", "verb", VERBS[action.action] || action.action));
  // The rack's tiles starred, those laid earlier in the turn too, as `hint` stars them.
  const fromRack = action.from_rack.concat(action.from_rack_earlier || []);
  if (action.action !== "lay" && action.action !== "split") {
    drawn.append(withCopies(tileRow(action.tiles, fromRack), action, actions));
  }
  if (action.action === "replace") drawn.append(el("span", "verb", "for"), tileChip("J"));
  drawn.append(el("span", "arrow", "→"));
  const made = action.after
    .filter((set) => set.length)
    .map((set, i) => feltSet(declared(set, action.jokers[i]), fromRack));
  if (made.length === 0) made.push(el("span", "verb", "nothing left"));
  if (action.action === "lay") made[0] = withCopies(made[0], action, actions);
  drawn.append(withTableSet(made, action));
  item.append(drawn);
  return item;
}

// What a step makes, with a caption under it where the step names the set of the table
// it means (`table_set`: it looks like another the rules tell apart): "set 2 of the table".
function withTableSet(made, action) {
  const row = document.createDocumentFragment();
  row.append(...made);
  if (typeof action.table_set !== "number") return row;
  const named = el("span", "named");
  const sets = el("span", "sets");
  sets.append(row);
  named.append(sets, el("span", "copy-from table-set", "set " + (action.table_set + 1) + " of the table"));
  return named;
}

function showAnswer(reply, sent) {
  $("headline").textContent = headline(reply);
  $("cut-short").hidden = !(reply.status === "feasible" && reply.tiles_played > 0);
  $("played").replaceChildren(...reply.played.map((word) => tileChip(word, true)));
  const after = $("after");
  after.replaceChildren();
  const played = reply.tiles_played > 0;
  const standFor = reply.stand_for || [];
  (played ? reply.steps : []).forEach((step, index) => {
    const item = feltSet(declared(step.set, standFor[index]), step.from_rack, "li");
    item.classList.add(step.action === "keep" ? "kept" : "changed");
    item.append(unseen(explain(step, sent)));
    after.append(item);
  });
  $("after-title").hidden = !played;
  after.hidden = !played;
  const actions = Array.isArray(reply.actions) ? reply.actions : [];
  $("actions").replaceChildren(...actions.map((action) => actionItem(action, actions)));
  $("actions").hidden = $("actions-title").hidden = actions.length === 0;
  // Steps no order lets a player follow with copies alike mixed in the hand, as hint says.
  $("hold-apart").hidden = reply.hold_apart !== true;
  const rackAfter = $("rack-after");
  rackAfter.replaceChildren(tileRow(reply.rack));
  if (reply.rack.length === 0) rackAfter.replaceChildren(el("span", "empty", "(empty: Rummikub!)"));
  const ms = Math.round(reply.seconds * 1000);
  const rules = reply.rules.profile === "official" ? "" : ", " + reply.rules.profile + " rules";
  $("status").textContent = reply.status + ", " + ms + " ms, " + reply.backend + rules;
  $("next-turn").hidden = !played;
  $("next-turn").onclick = () => {
    // Each joker keeps standing for its tile until it is freed: the next board says which.
    change(() => {
      state.sets = reply.table.map((tiles, index) => declared(tiles, standFor[index]));
      state.rack = reply.rack.slice();
      state.opened = true;
      state.target = "rack";
      state.selected = null;
    });
    pickOf(state.target).focus({ preventScroll: true });
  };
  $("answer").hidden = false;
  document.body.classList.add("answering");
  window.scrollTo(0, 0);
  $("answer").scrollIntoView({ block: "start" });
  // The keypad, and Best move in it, are hidden: keyboard focus goes on to the answer.
  $("headline").focus({ preventScroll: true });
}

function showProfile() {
  const profile = settings.profiles.find((p) => p.name === $("profile").value);
  let words = profile ? profile.name + ": " + profile.summary : "";
  if (settings.words.length && $("profile").value === settings.rules.profile) {
    words += " (this server: " + settings.words.join(" ") + ")";
  }
  $("summary").textContent = words;
}

function serverRules() {
  return [settings.rules.profile, ...settings.words].join(" ");
}

async function loadSettings() {
  try {
    const response = await fetch("api/settings");
    settings = await response.json();
  } catch (error) {
    settings = { rules: { profile: "official" }, words: [], profiles: [{ name: "official", summary: "" }] };
  }
  const select = $("profile");
  select.replaceChildren(...settings.profiles.map((p) => el("option", "", p.name)));
  if (state.server !== serverRules()) state.profile = null;
  select.value = state.profile || settings.rules.profile;
  if (select.value === "") select.value = settings.rules.profile;
  showProfile();
}

// The keypad's height (the edit bar comes and goes), which the page leaves room for.
function measureKeypad() {
  document.documentElement.style.setProperty("--keypad-height", $("keypad").offsetHeight + "px");
}

function setUp() {
  const numbers = $("numbers");
  const joker = $("joker");
  for (let n = 1; n <= 13; n += 1) {
    const key = el("button", "key number", String(n));
    key.type = "button";
    key.dataset.number = String(n);
    key.addEventListener("click", () => addTile(state.colour + n));
    numbers.insertBefore(key, joker);
  }
  joker.addEventListener("click", () => addTile("J"));
  for (const key of document.querySelectorAll("[data-colour]")) {
    key.addEventListener("click", () => {
      state.colour = key.dataset.colour;
      render();
    });
  }
  $("back").addEventListener("click", deleteTile);
  $("delete").addEventListener("click", deleteTile);
  $("undo").addEventListener("click", () => travel(history.undo, history.redo));
  $("redo").addEventListener("click", () => travel(history.redo, history.undo));
  for (const mode of ["replace", "before"]) {
    $(mode).addEventListener("click", () => {
      state.mode = mode;
      render();
    });
  }
  $("deselect").addEventListener("click", () => {
    const { where, at } = state.selected;
    state.selected = null;
    render();
    const chip = document.querySelector(`[data-key="tile:${where}:${at}"]`);
    if (chip) chip.focus({ preventScroll: true });
  });
  $("new-set").addEventListener("click", newSet);
  $("to-rack").addEventListener("click", () => pickPlace("rack"));
  $("rack").addEventListener("click", () => pickPlace("rack"));
  $("solve").addEventListener("click", solve);
  $("edit").addEventListener("click", () => {
    hideAnswer();
    redraw();
    pickOf(state.target).focus({ preventScroll: true });
  });
  $("opened").addEventListener("change", () => change(() => {
    state.opened = $("opened").checked;
  }));
  $("profile").addEventListener("change", () => {
    state.profile = $("profile").value;
    state.server = serverRules();
    showProfile();
    hideAnswer();
    render();
  });
  // Undo brings a cleared position back: no question asked.
  $("clear").addEventListener("click", () => change(() => {
    Object.assign(state, { sets: [], rack: [], opened: true, target: "rack", selected: null });
    state.profile = $("profile").value;
    state.server = serverRules();
  }));
  window.addEventListener("resize", measureKeypad);
  render();
  loadSettings();
}

setUp();
