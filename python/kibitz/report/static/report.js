// kibitz report: draws the games of the collection from the JSON embedded in the page.
// Game sections are drawn when they come near the screen (or are opened from the games
// table), so a page of thousands of games opens at once. Every string that comes from a
// PGN goes into the page as text (textContent), never as markup.
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  if (window.performance && performance.mark) performance.mark("kibitz-start");
  var DATA = JSON.parse(document.getElementById("kibitz-data").textContent);
  if (window.performance && performance.mark) performance.mark("kibitz-parsed");
  var GAMES = DATA.games;
  var START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  var FILES = "abcdefgh";
  var WIN_SLOPE = 0.00368208;
  var CP_CAP = 1000;
  var GRAPH_W = 600, GRAPH_H = 120;
  var MARK = { i: "?!", m: "?", b: "??" };
  var MARK_NAME = { i: "inaccuracy", m: "mistake", b: "blunder" };

  // ------------------------------------------------------------------ helpers

  function h(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function s(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, String(attrs[k]));
    return e;
  }

  function fmt(v, digits) {
    return v === null || v === undefined ? "–" : Number(v).toFixed(digits);
  }

  function tag(g, name) {
    var v = g.h[name];
    return v === undefined || v === "" ? "?" : v;
  }

  // ------------------------------------------------------------------ positions

  function squareIndex(name) {
    return FILES.indexOf(name[0]) + 8 * (parseInt(name[1], 10) - 1);
  }

  function squareName(i) {
    return FILES[i % 8] + String(Math.floor(i / 8) + 1);
  }

  function parseFen(fen) {
    var f = fen.split(/\s+/);
    var board = new Array(64).fill("");
    var rows = f[0].split("/");
    for (var r = 0; r < 8; r++) {
      var file = 0;
      for (var c = 0; c < rows[r].length; c++) {
        var ch = rows[r][c];
        if (ch >= "1" && ch <= "8") file += parseInt(ch, 10);
        else board[(7 - r) * 8 + file++] = ch;
      }
    }
    return { board: board, turn: f[1] || "w", castling: f[2] || "-", ep: f[3] || "-",
             half: parseInt(f[4] || "0", 10), full: parseInt(f[5] || "1", 10) };
  }

  function toFen(p) {
    var rows = [];
    for (var r = 7; r >= 0; r--) {
      var row = "", empty = 0;
      for (var f = 0; f < 8; f++) {
        var pc = p.board[r * 8 + f];
        if (!pc) { empty++; continue; }
        if (empty) { row += empty; empty = 0; }
        row += pc;
      }
      if (empty) row += empty;
      rows.push(row);
    }
    return [rows.join("/"), p.turn, p.castling, p.ep, p.half, p.full].join(" ");
  }

  function dropCastling(castling, chars) {
    var out = castling.split("").filter(function (c) { return chars.indexOf(c) < 0; }).join("");
    return out || "-";
  }

  // Castling rights lost when a square is left or captured on (standard chess corners).
  var CORNER_RIGHTS = { 0: "Q", 7: "K", 56: "q", 63: "k", 4: "KQ", 60: "kq" };

  function applyUci(p, uci) {
    var b = p.board.slice();
    var from = squareIndex(uci.slice(0, 2)), to = squareIndex(uci.slice(2, 4));
    var piece = b[from], target = b[to];
    var white = piece === piece.toUpperCase();
    var kind = piece.toLowerCase();
    var castling = p.castling;
    var ep = "-";
    var zeroing = kind === "p" || (target !== "" && (target === target.toUpperCase()) !== white);
    if (kind === "k" && (Math.abs(to - from) === 2 || (target !== "" && (target === target.toUpperCase()) === white))) {
      // Castling: e1g1 style, or the king taking its own rook (Chess960).
      var kingside = to > from;
      var rank = from - (from % 8);
      var rookFrom = target !== "" && target.toLowerCase() === "r" ? to : (kingside ? rank + 7 : rank);
      b[from] = ""; b[rookFrom] = "";
      b[rank + (kingside ? 6 : 2)] = piece;
      b[rank + (kingside ? 5 : 3)] = white ? "R" : "r";
      castling = dropCastling(castling, white ? "KQABCDEFGH" : "kqabcdefgh");
    } else {
      b[from] = "";
      if (kind === "p" && from % 8 !== to % 8 && target === "") b[to + (white ? -8 : 8)] = ""; // en passant
      b[to] = uci.length > 4 ? (white ? uci[4].toUpperCase() : uci[4].toLowerCase()) : piece;
      if (kind === "p" && Math.abs(to - from) === 16) {
        // The en passant square, as the analysis writes it: only when a pawn can take.
        var enemy = white ? "p" : "P";
        var f = to % 8;
        if ((f > 0 && b[to - 1] === enemy) || (f < 7 && b[to + 1] === enemy)) ep = squareName((from + to) / 2);
      }
      if (kind === "k") castling = dropCastling(castling, white ? "KQABCDEFGH" : "kqabcdefgh");
      [from, to].forEach(function (sq) {
        if (CORNER_RIGHTS[sq] && sq !== 4 && sq !== 60) castling = dropCastling(castling, CORNER_RIGHTS[sq]);
      });
    }
    return { board: b, turn: p.turn === "w" ? "b" : "w", castling: castling, ep: ep,
             half: zeroing ? 0 : p.half + 1, full: p.full + (p.turn === "b" ? 1 : 0) };
  }

  function gamePositions(g) {
    if (g._pos) return g._pos;
    var p = parseFen(g.f || START);
    var out = [p];
    var moves = g.u ? g.u.split(" ") : [];
    for (var i = 0; i < moves.length; i++) {
      p = applyUci(p, moves[i]);
      out.push(p);
    }
    g._moves = moves;
    g._sans = g.s ? g.s.split(" ") : [];
    g._pos = out;
    return out;
  }

  // ------------------------------------------------------------------ board

  // Black at the bottom when flipped.
  function drawBoard(p, lastUci, size, flipped) {
    var svg = s("svg", { viewBox: "0 0 800 800", width: size, height: size, "class": "board-svg" });
    var marked = {};
    if (lastUci) { marked[squareIndex(lastUci.slice(0, 2))] = 1; marked[squareIndex(lastUci.slice(2, 4))] = 1; }
    for (var sq = 0; sq < 64; sq++) {
      var col = sq % 8, row = 7 - Math.floor(sq / 8);
      if (flipped) { col = 7 - col; row = 7 - row; }
      var x = col * 100, y = row * 100;
      var light = ((sq % 8) + Math.floor(sq / 8)) % 2 === 1;
      svg.appendChild(s("rect", { x: x, y: y, width: 100, height: 100, "class": light ? "sq light" : "sq dark" }));
      if (marked[sq]) svg.appendChild(s("rect", { x: x, y: y, width: 100, height: 100, "class": "sq last" }));
      var pc = p.board[sq];
      if (pc) {
        var use = s("use", { x: x, y: y, width: 100, height: 100, "data-piece": pc, "data-square": squareName(sq) });
        use.setAttribute("href", "#kp-" + (pc === pc.toUpperCase() ? "w" : "b") + pc.toLowerCase());
        svg.appendChild(use);
      }
    }
    return svg;
  }

  // ------------------------------------------------------------------ evaluation graph

  // White's win chance in percent, lichess's curve: 50 + 50 * (2 / (1 + exp(-k * cp)) - 1).
  function winChance(score) {
    if (typeof score === "string") return score.charAt(1) === "-" ? 0 : 100;
    var cp = Math.max(-CP_CAP, Math.min(CP_CAP, score));
    return 50 + 50 * (2 / (1 + Math.exp(-WIN_SLOPE * cp)) - 1);
  }

  function scoreText(score) {
    if (typeof score === "string") return score.charAt(2) === "0" && score.length === 3 ? "mate" : "#" + (score.charAt(1) === "-" ? "-" : "") + score.slice(2);
    return (score > 0 ? "+" : "") + (score / 100).toFixed(2);
  }

  function drawGraph(g, view) {
    var n = Math.max(1, g.e.length - 1);
    var svg = s("svg", { viewBox: "0 0 " + GRAPH_W + " " + GRAPH_H, "class": "graph", preserveAspectRatio: "none",
                         role: "img", "aria-label": "evaluation graph" });
    var pts = g.e.map(function (sc, i) {
      return [(i / n) * GRAPH_W, GRAPH_H - (winChance(sc) / 100) * GRAPH_H];
    });
    svg.appendChild(s("rect", { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H, "class": "graph-bg" }));
    var area = "M0 " + GRAPH_H + " " + pts.map(function (q) { return "L" + q[0].toFixed(1) + " " + q[1].toFixed(1); }).join(" ") +
               " L" + GRAPH_W + " " + GRAPH_H + " Z";
    svg.appendChild(s("path", { d: area, "class": "graph-white" }));
    svg.appendChild(s("line", { x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2, "class": "graph-mid" }));
    for (var i = 0; i < g.j.length; i++) {
      var m = g.j.charAt(i);
      if (m === ".") continue;
      var q = pts[i + 1];
      svg.appendChild(s("circle", { cx: q[0].toFixed(1), cy: q[1].toFixed(1), r: 4, "class": "dot " + MARK_NAME[m],
                                    "data-ply": i + 1 }));
    }
    var cursor = s("line", { x1: 0, y1: 0, x2: 0, y2: GRAPH_H, "class": "graph-cursor" });
    svg.appendChild(cursor);
    view.cursor = cursor;
    svg.addEventListener("click", function (ev) {
      var rect = svg.getBoundingClientRect();
      var ply = Math.round(((ev.clientX - rect.left) / rect.width) * n);
      setPly(view, Math.max(0, Math.min(g.e.length - 1, ply)));
    });
    return svg;
  }

  // ------------------------------------------------------------------ one game

  var active = null; // the view the arrow keys move

  function setPly(view, ply) {
    var g = view.g;
    var pos = gamePositions(g);
    ply = Math.max(0, Math.min(pos.length - 1, ply));
    view.ply = ply;
    active = view;
    var fen = toFen(pos[ply]);
    view.boardBox.replaceChildren(drawBoard(pos[ply], ply > 0 ? g._moves[ply - 1] : null, 320, view.flipped));
    view.boardBox.setAttribute("data-fen", fen);
    view.boardBox.setAttribute("data-ply", ply);
    view.section.setAttribute("data-ply", ply);
    var x = (ply / Math.max(1, g.e.length - 1)) * GRAPH_W;
    view.cursor.setAttribute("x1", x.toFixed(1));
    view.cursor.setAttribute("x2", x.toFixed(1));
    if (view.current) view.current.classList.remove("current");
    view.current = view.moveSpans[ply] || null;
    if (view.current) {
      view.current.classList.add("current");
      // Keep the current move visible inside the move list (without scrolling the page).
      var top = view.current.offsetTop, list = view.list;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - view.current.offsetHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
    var sc = g.e[ply];
    view.info.textContent = (ply === 0 ? "Start" : "After " + moveLabel(g, ply)) + " · " + scoreText(sc) +
      " · White's win chance " + winChance(sc).toFixed(0) + "%";
  }

  function moveNumber(g, ply) {
    var start = gamePositions(g)[0];
    var index = ply - 1 + (start.turn === "b" ? 1 : 0);
    return start.full + Math.floor(index / 2);
  }

  function moveLabel(g, ply) {
    var white = gamePositions(g)[ply - 1].turn === "w";
    return moveNumber(g, ply) + (white ? ". " : "… ") + g._sans[ply - 1] + (MARK[g.j.charAt(ply - 1)] || "");
  }

  function player(g, colour) {
    var elo = g.h[colour + "Elo"];
    return tag(g, colour) + (elo && elo !== "?" && elo !== "-" ? " (" + elo + ")" : "");
  }

  function gameTitle(g) {
    return "#" + g.n + "  " + player(g, "White") + " – " + player(g, "Black") + "  " + g.r;
  }

  function renderGame(section, g) {
    section.classList.remove("pending");
    section.replaceChildren();
    var head = h("h3", null, gameTitle(g));
    section.appendChild(head);
    var meta = [g.h.Event, g.h.Site, g.h.Date, g.h.Round ? "round " + g.h.Round : "", g.h.TimeControl].filter(function (v) { return v; });
    if (g.o) meta.push(g.o[0] + " " + g.o[1]);
    section.appendChild(h("p", "meta", meta.join(" · ")));
    if (g.err) {
      section.appendChild(h("p", "error", "Not analysed: " + g.err));
      return;
    }
    gamePositions(g);
    var view = { g: g, section: section, ply: 0, moveSpans: {} };
    section.appendChild(h("p", "figures",
      "Accuracy White " + fmt(g.a[0], 1) + " · Black " + fmt(g.a[1], 1) +
      "   ACPL White " + fmt(g.c[0], 1) + " · Black " + fmt(g.c[1], 1)));
    var top = h("div", "game-top");
    var left = h("div", "game-left");
    view.boardBox = h("div", "board");
    view.boardBox.tabIndex = 0;
    left.appendChild(view.boardBox);
    view.info = h("p", "info");
    left.appendChild(view.info);
    view.flipped = false;
    var flip = h("button", "flip", "Flip board");
    flip.type = "button";
    flip.addEventListener("click", function () { view.flipped = !view.flipped; setPly(view, view.ply); });
    left.appendChild(flip);
    var right = h("div", "game-right");
    right.appendChild(drawGraph(g, view));
    var list = h("div", "moves");
    view.list = list;
    var white;
    for (var ply = 1; ply <= g._moves.length; ply++) {
      white = g._pos[ply - 1].turn === "w";
      if (white || ply === 1) {
        list.appendChild(h("span", "num", moveNumber(g, ply) + (white ? "." : "…")));
        list.appendChild(document.createTextNode(" "));
      }
      var mk = g.j.charAt(ply - 1);
      var span = h("span", "move" + (mk !== "." ? " " + MARK_NAME[mk] : ""), g._sans[ply - 1] + (MARK[mk] || ""));
      span.setAttribute("data-ply", ply);
      view.moveSpans[ply] = span;
      list.appendChild(span);
      list.appendChild(document.createTextNode(" "));
    }
    list.addEventListener("click", function (ev) {
      var t = ev.target;
      if (t && t.getAttribute && t.getAttribute("data-ply")) setPly(view, parseInt(t.getAttribute("data-ply"), 10));
    });
    right.appendChild(list);
    top.appendChild(left);
    top.appendChild(right);
    section.appendChild(top);
    section.addEventListener("mousedown", function () { active = view; });
    if (g.x.length) {
      var mistakes = h("div", "mistakes");
      mistakes.appendChild(h("h4", null, "Mistakes"));
      g.x.forEach(function (x) {
        var ply = x[0] + 1; // x[0] is the ply of the position before the move
        var kind = MARK_NAME[g.j.charAt(x[0])] || "";
        var item = h("div", "mistake-card " + kind);
        item.setAttribute("data-ply", ply);
        // The position before the move, seen from the side that made it.
        item.appendChild(drawBoard(g._pos[x[0]], x[0] > 0 ? g._moves[x[0] - 1] : null, 160, g._pos[x[0]].turn === "b"));
        var text = h("div", "mistake-text");
        text.appendChild(h("p", "played", moveLabel(g, ply) + " (" + kind + ")"));
        text.appendChild(h("p", null, "Best: " + (x[3] || "–") + (x[4] ? "   line: " + x[4] : "")));
        text.appendChild(h("p", null, "Loss: " + x[1].toFixed(1) + " points of win chance, " + x[2] + " centipawns"));
        item.appendChild(text);
        item.addEventListener("click", function () { setPly(view, ply); });
        mistakes.appendChild(item);
      });
      section.appendChild(mistakes);
    }
    setPly(view, 0);
    active = null;
  }

  // ------------------------------------------------------------------ the games, drawn on demand

  var container = document.getElementById("games");
  var sections = [];
  var observer = null;
  if ("IntersectionObserver" in window) {
    observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting) ensure(parseInt(entry.target.getAttribute("data-index"), 10));
      });
    }, { rootMargin: "800px 0px" });
  }

  function ensure(i) {
    var section = sections[i];
    if (section.classList.contains("pending")) {
      renderGame(section, GAMES[i]);
      if (observer) observer.unobserve(section);
    }
    return section;
  }

  var frag = document.createDocumentFragment();
  GAMES.forEach(function (g, i) {
    var section = h("section", "game pending");
    section.id = "game-" + g.n;
    section.setAttribute("data-index", i);
    section.appendChild(h("h3", null, gameTitle(g)));
    sections.push(section);
    frag.appendChild(section);
  });
  container.appendChild(frag);
  if (observer) sections.forEach(function (sec) { observer.observe(sec); });
  else sections.forEach(function (sec, i) { ensure(i); });

  document.addEventListener("keydown", function (ev) {
    if (!active || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    var step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1000, ArrowDown: 1000, Home: -100000, End: 100000 }[ev.key];
    if (step === undefined) return;
    ev.preventDefault();
    setPly(active, active.ply + (Math.abs(step) === 1000 ? (step > 0 ? 10 : -10) : step));
  });

  // ------------------------------------------------------------------ the games table

  var PAGE = 100;
  var order = GAMES.map(function (g, i) { return i; });
  var shown = 0;
  var tbody = document.getElementById("game-rows");
  var more = document.getElementById("more-games");

  function meanAccuracy(g) {
    if (!g.a) return null;
    var v = g.a.filter(function (a) { return a !== null && a !== undefined; });
    return v.length ? v.reduce(function (x, y) { return x + y; }, 0) / v.length : null;
  }

  function sortGames(key) {
    var num = function (v, missing) { return v === null || v === undefined ? missing : v; };
    var cmp = {
      number: function (a, b) { return a - b; },
      "accuracy-asc": function (a, b) { return num(meanAccuracy(GAMES[a]), 1e9) - num(meanAccuracy(GAMES[b]), 1e9) || a - b; },
      "accuracy-desc": function (a, b) { return num(meanAccuracy(GAMES[b]), -1) - num(meanAccuracy(GAMES[a]), -1) || a - b; },
      blunder: function (a, b) {
        return num(GAMES[b].m && GAMES[b].m[0], -1) - num(GAMES[a].m && GAMES[a].m[0], -1) || a - b;
      }
    }[key];
    order.sort(cmp);
    tbody.replaceChildren();
    shown = 0;
    showMore();
  }

  function gameRow(i) {
    var g = GAMES[i];
    var tr = h("tr");
    tr.setAttribute("data-index", i);
    tr.appendChild(h("td", "num", g.n));
    tr.appendChild(h("td", null, tag(g, "White")));
    tr.appendChild(h("td", null, tag(g, "Black")));
    tr.appendChild(h("td", null, g.r));
    tr.appendChild(h("td", null, g.o ? g.o[0] + " " + g.o[1] : ""));
    if (g.err) {
      var td = h("td", "error", "not analysed");
      td.colSpan = 3;
      tr.appendChild(td);
    } else {
      tr.appendChild(h("td", "num", fmt(g.a[0], 1) + " / " + fmt(g.a[1], 1)));
      tr.appendChild(h("td", "num", fmt(meanAccuracy(g), 1)));
      tr.appendChild(h("td", "num", g.m[1] >= 0 ? g.m[0].toFixed(1) : "–"));
    }
    tr.addEventListener("click", function () { openGame(i); });
    return tr;
  }

  function showMore() {
    var frag = document.createDocumentFragment();
    var end = Math.min(order.length, shown + PAGE);
    for (var k = shown; k < end; k++) frag.appendChild(gameRow(order[k]));
    tbody.appendChild(frag);
    shown = end;
    more.hidden = shown >= order.length;
    more.textContent = "Show " + Math.min(PAGE, order.length - shown) + " more (" + (order.length - shown) + " left)";
  }

  function openGame(i) {
    var section = ensure(i);
    section.scrollIntoView({ block: "start" });
    if (GAMES[i].m && GAMES[i].m[1] >= 0 && document.getElementById("sort").value === "blunder") {
      var v = null;
      // Jump to the largest loss when the table is sorted by it.
      v = { ply: GAMES[i].m[1] + 1 };
      var span = section.querySelector('.move[data-ply="' + v.ply + '"]');
      if (span) span.click();
    }
  }

  more.addEventListener("click", showMore);
  var select = document.getElementById("sort");
  select.addEventListener("change", function () { sortGames(select.value); });
  sortGames(select.value);

  // For tests and the curious: the FEN of every position of game i, as the board shows them.
  function fens(i) { return gamePositions(GAMES[i]).map(toFen); }
  window.kibitzReport = { games: GAMES.length, ensure: ensure, fens: fens };
  document.body.setAttribute("data-ready", "1");
  if (window.performance && performance.mark) performance.mark("kibitz-ready");
})();
