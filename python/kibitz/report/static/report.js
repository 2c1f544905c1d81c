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
  // The graph's drawing units; it is drawn at the width of its column and keeps these
  // proportions, so at the usual 600-odd pixels one unit is about a pixel.
  var GRAPH_W = 620, GRAPH_H = 150;
  // Room around the plot: the value labels on the left, the move numbers below, and half a
  // judgement dot (radius 4) at the top and right so that a dot at the top or on the last
  // move is drawn whole; 14 on the right also holds half of a three-digit move number.
  var PLOT = { l: 40, r: 14, t: 8, b: 22 };
  // At most this many move numbers under the graph: one every 2, 5, 10, ... moves.
  var GRAPH_TICKS = 12;
  // Board sizes in pixels, coordinates included: the game's board, and each mistake's.
  var BOARD_PX = 320, MISTAKE_BOARD_PX = 200;
  // Coordinates are drawn COORD_PX pixels high (the size of the page's small print) in a
  // strip COORD_ROOM times their height.
  var COORD_PX = 10.5, COORD_ROOM = 1.35;
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

  // ------------------------------------------------------------------ moves in SAN, for the arrows

  // The records carry the best move in SAN only; its squares are found here, on the page's
  // own positions: the pieces of the named kind that can reach the target square, narrowed
  // by the SAN's file or rank, and (when two remain) to the one whose move leaves its king
  // safe, which is how SAN leaves out a pinned piece.
  function isWhite(pc) { return pc === pc.toUpperCase(); }

  // Whether a piece of this kind (not a pawn) on `from` attacks `to` on this board.
  function reaches(board, from, to, kind) {
    var df = (to % 8) - (from % 8), dr = Math.floor(to / 8) - Math.floor(from / 8);
    var adf = Math.abs(df), adr = Math.abs(dr);
    if (adf + adr === 0) return false;
    if (kind === "n") return adf * adr === 2;
    if (kind === "k") return Math.max(adf, adr) === 1;
    var straight = df === 0 || dr === 0, diagonal = adf === adr;
    if (!(((kind === "r" || kind === "q") && straight) || ((kind === "b" || kind === "q") && diagonal))) return false;
    var step = Math.sign(df) + 8 * Math.sign(dr);
    for (var sq = from + step; sq !== to; sq += step) if (board[sq]) return false;
    return true;
  }

  function pawnAttacks(from, to, white) {
    return Math.abs((to % 8) - (from % 8)) === 1 && Math.floor(to / 8) - Math.floor(from / 8) === (white ? 1 : -1);
  }

  function attacked(board, sq, byWhite) {
    for (var i = 0; i < 64; i++) {
      var pc = board[i];
      if (!pc || isWhite(pc) !== byWhite) continue;
      var kind = pc.toLowerCase();
      if (kind === "p" ? pawnAttacks(i, sq, byWhite) : reaches(board, i, sq, kind)) return true;
    }
    return false;
  }

  function pawnReaches(p, from, to, white, capture) {
    if (capture) return pawnAttacks(from, to, white);
    if ((to % 8) !== (from % 8)) return false;
    var dir = white ? 8 : -8;
    if (to === from + dir) return !p.board[to];
    var home = white ? 1 : 6;
    return to === from + 2 * dir && Math.floor(from / 8) === home && !p.board[from + dir] && !p.board[to];
  }

  function leavesKingSafe(p, from, to) {
    var b = p.board.slice();
    b[to] = b[from];
    b[from] = "";
    var white = p.turn === "w";
    var king = b.indexOf(white ? "K" : "k");
    return king < 0 || !attacked(b, king, !white);
  }

  // [from, to] (square indices) of the move `san` in position p, or null; castling is drawn
  // as the king's move to the g or c file.
  function sanSquares(p, san) {
    var white = p.turn === "w";
    var text = String(san || "").replace(/[+#?!]+$/, "");
    if (/^(O-O|0-0)(-O|-0)?$/.test(text)) {
      var king = p.board.indexOf(white ? "K" : "k");
      if (king < 0) return null;
      return [king, king - (king % 8) + (text.length > 3 ? 2 : 6)];
    }
    var m = /^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(=?[NBRQ])?$/.exec(text);
    if (!m) return null;
    var kind = m[1] ? m[1].toLowerCase() : "p";
    var own = white ? kind.toUpperCase() : kind;
    var to = squareIndex(m[4]);
    var found = [];
    for (var from = 0; from < 64; from++) {
      if (p.board[from] !== own) continue;
      if (m[2] && FILES[from % 8] !== m[2]) continue;
      if (m[3] && String(Math.floor(from / 8) + 1) !== m[3]) continue;
      var ok = kind === "p" ? pawnReaches(p, from, to, white, text.indexOf("x") >= 0) : reaches(p.board, from, to, kind);
      if (ok) found.push(from);
    }
    if (found.length > 1) found = found.filter(function (from) { return leavesKingSafe(p, from, to); });
    return found.length === 1 ? [found[0], to] : null;
  }

  function uciSquares(uci) {
    return uci ? [squareIndex(uci.slice(0, 2)), squareIndex(uci.slice(2, 4))] : null;
  }

  // ------------------------------------------------------------------ board

  // Where square sq's top left corner is drawn (the board is 800 units square).
  function squareXY(sq, flipped) {
    var col = sq % 8, row = 7 - Math.floor(sq / 8);
    if (flipped) { col = 7 - col; row = 7 - row; }
    return [col * 100, row * 100];
  }

  // The coordinates sit in a strip left of and below the board, sized so that their letters
  // are COORD_PX pixels high at any board size.
  function coordStrip(size) {
    // strip = COORD_ROOM * font and font = COORD_PX * (800 + strip) / size, solved for strip.
    return (COORD_ROOM * COORD_PX * 800) / (size - COORD_ROOM * COORD_PX);
  }

  // An arrow from the centre of one square towards the centre of another, as one polygon.
  function arrow(squares, flipped, cls) {
    var a = squareXY(squares[0], flipped), b = squareXY(squares[1], flipped);
    var x0 = a[0] + 50, y0 = a[1] + 50, x1 = b[0] + 50, y1 = b[1] + 50;
    var len = Math.sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)) || 1;
    var ux = (x1 - x0) / len, uy = (y1 - y0) / len, nx = -uy, ny = ux;
    // Shaft 20 units wide, head 40 long and 56 wide: thick enough to read on a 200-pixel
    // board, thin enough not to hide the pieces under it.
    var shaft = 10, head = 28, headLen = 40;
    var bx = x1 - ux * headLen, by = y1 - uy * headLen;
    var pts = [[x0 + nx * shaft, y0 + ny * shaft], [bx + nx * shaft, by + ny * shaft], [bx + nx * head, by + ny * head],
               [x1, y1], [bx - nx * head, by - ny * head], [bx - nx * shaft, by - ny * shaft],
               [x0 - nx * shaft, y0 - ny * shaft]];
    return s("polygon", { points: pts.map(function (q) { return q[0].toFixed(1) + "," + q[1].toFixed(1); }).join(" "),
                          "class": "arrow " + cls, "data-from": squareName(squares[0]),
                          "data-to": squareName(squares[1]) });
  }

  // The board of position p, `size` pixels wide with its coordinates; Black at the bottom
  // when flipped. `arrows`: [[from, to], class] pairs drawn over the pieces.
  function drawBoard(p, lastUci, size, flipped, arrows) {
    var strip = coordStrip(size), font = strip / COORD_ROOM;
    var svg = s("svg", { viewBox: (-strip).toFixed(1) + " 0 " + (800 + strip).toFixed(1) + " " + (800 + strip).toFixed(1),
                         width: size, height: size, "class": "board-svg",
                         "data-orientation": flipped ? "black" : "white" });
    var marked = {};
    if (lastUci) { marked[squareIndex(lastUci.slice(0, 2))] = 1; marked[squareIndex(lastUci.slice(2, 4))] = 1; }
    for (var sq = 0; sq < 64; sq++) {
      var xy = squareXY(sq, flipped), x = xy[0], y = xy[1];
      var light = ((sq % 8) + Math.floor(sq / 8)) % 2 === 1;
      svg.appendChild(s("rect", { x: x, y: y, width: 100, height: 100, "class": light ? "sq light" : "sq dark" }));
      if (marked[sq]) svg.appendChild(s("rect", { x: x, y: y, width: 100, height: 100, "class": "sq last" }));
      var pc = p.board[sq];
      if (pc) {
        var use = s("use", { x: x, y: y, width: 100, height: 100, "data-piece": pc, "data-square": squareName(sq) });
        use.setAttribute("href", "#kp-" + (isWhite(pc) ? "w" : "b") + pc.toLowerCase());
        svg.appendChild(use);
      }
    }
    for (var i = 0; i < 8; i++) {
      var file = s("text", { x: (flipped ? 7 - i : i) * 100 + 50, y: 800 + strip / 2, "font-size": font.toFixed(1),
                             "class": "coord", "data-file": FILES[i] });
      file.textContent = FILES[i];
      svg.appendChild(file);
      var rank = s("text", { x: -strip / 2, y: (flipped ? i : 7 - i) * 100 + 50, "font-size": font.toFixed(1),
                             "class": "coord", "data-rank": i + 1 });
      rank.textContent = String(i + 1);
      svg.appendChild(rank);
    }
    (arrows || []).forEach(function (a) { if (a[0]) svg.appendChild(arrow(a[0], flipped, a[1])); });
    return svg;
  }

  // The height in pixels of the board's squares inside a board drawn `size` pixels wide.
  function squaresHeight(size) {
    return (size * 800) / (800 + coordStrip(size));
  }

  // ------------------------------------------------------------------ evaluation graph

  // White's win chance in percent for a score in centipawns, lichess's curve:
  // 50 + 50 * (2 / (1 + exp(-k * cp)) - 1).
  function curve(cp) {
    return 50 + 50 * (2 / (1 + Math.exp(-WIN_SLOPE * cp)) - 1);
  }

  // As lichess's evaluation graph plots a position: cp clamped to +-CP_CAP, and a mate (or
  // the checkmate itself) at the clamp of the side that mates, so 97.5 % or 2.5 %.
  function winChance(score) {
    if (typeof score === "string") return curve(score.charAt(1) === "-" ? -CP_CAP : CP_CAP);
    return curve(Math.max(-CP_CAP, Math.min(CP_CAP, score)));
  }

  // As lichess's evaluation gauge fills for a position: a centipawn score as on the graph,
  // a mate in n as (21 - min(10, n)) * 100 centipawns, not clamped (mate in 1 99.9 %, mate
  // in 10 or more 98.3 %).
  function gaugeChance(score) {
    if (typeof score !== "string") return winChance(score);
    var cp = (21 - Math.min(10, parseInt(score.slice(2), 10))) * 100;
    return curve(score.charAt(1) === "-" ? -cp : cp);
  }

  function scoreText(score) {
    if (typeof score === "string") return score.charAt(2) === "0" && score.length === 3 ? "mate" : "#" + (score.charAt(1) === "-" ? "-" : "") + score.slice(2);
    return (score > 0 ? "+" : "") + (score / 100).toFixed(2);
  }

  // What the graph's tooltip and the line under the board say about position `ply`.
  function plyText(g, ply) {
    var sc = g.e[ply];
    return (ply === 0 ? "Start" : moveLabel(g, ply)) + " · " + scoreText(sc) + " · White's win chance " +
      winChance(sc).toFixed(0) + "%";
  }

  // A step for the move numbers under the graph that leaves at most GRAPH_TICKS of them.
  function tickStep(moves) {
    var steps = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500];
    for (var i = 0; i < steps.length; i++) if (moves / steps[i] <= GRAPH_TICKS) return steps[i];
    return 1000;
  }

  function drawGraph(g, view) {
    var n = Math.max(1, g.e.length - 1);
    var pw = GRAPH_W - PLOT.l - PLOT.r, ph = GRAPH_H - PLOT.t - PLOT.b;
    function gx(i) { return PLOT.l + (i / n) * pw; }
    function gy(win) { return PLOT.t + (1 - win / 100) * ph; }
    var svg = s("svg", { viewBox: "0 0 " + GRAPH_W + " " + GRAPH_H, "class": "graph", role: "img",
                         "aria-label": "evaluation graph: White's win chance in percent by move" });
    svg.appendChild(s("rect", { x: PLOT.l, y: PLOT.t, width: pw, height: ph, "class": "graph-bg" }));
    var pts = g.e.map(function (sc, i) { return [gx(i), gy(winChance(sc))]; });
    var area = "M" + gx(0) + " " + gy(0) + " " +
               pts.map(function (q) { return "L" + q[0].toFixed(1) + " " + q[1].toFixed(1); }).join(" ") +
               " L" + gx(n) + " " + gy(0) + " Z";
    svg.appendChild(s("path", { d: area, "class": "graph-white" }));
    // The value axis: White's win chance, a line every quarter.
    [0, 25, 50, 75, 100].forEach(function (v) {
      svg.appendChild(s("line", { x1: PLOT.l, y1: gy(v), x2: PLOT.l + pw, y2: gy(v),
                                  "class": v === 50 ? "graph-mid" : "graph-grid" }));
      var label = s("text", { x: PLOT.l - 5, y: gy(v), "class": "axis axis-y", "data-value": v });
      label.textContent = v + "%";
      svg.appendChild(label);
    });
    // The move axis: White's moves, numbered, every tickStep-th one.
    var step = tickStep(moveNumber(g, n) - moveNumber(g, 1) + 1);
    for (var k = 1; k <= g._moves.length; k++) {
      var mv = moveNumber(g, k);
      var whiteMove = g._pos[k - 1].turn === "w";
      if (!whiteMove || mv % step !== 0) continue;
      svg.appendChild(s("line", { x1: gx(k), y1: PLOT.t + ph, x2: gx(k), y2: PLOT.t + ph + 4, "class": "graph-tick" }));
      var num = s("text", { x: gx(k), y: PLOT.t + ph + 6, "class": "axis axis-x", "data-move": mv, "data-ply": k });
      num.textContent = String(mv);
      svg.appendChild(num);
    }
    for (var i = 0; i < g.j.length; i++) {
      var m = g.j.charAt(i);
      if (m === ".") continue;
      var q = pts[i + 1];
      svg.appendChild(s("circle", { cx: q[0].toFixed(1), cy: q[1].toFixed(1), r: 4, "class": "dot " + MARK_NAME[m],
                                    "data-ply": i + 1 }));
    }
    var hover = s("line", { x1: 0, y1: PLOT.t, x2: 0, y2: PLOT.t + ph, "class": "graph-hover", visibility: "hidden" });
    svg.appendChild(hover);
    var cursor = s("line", { x1: 0, y1: PLOT.t, x2: 0, y2: PLOT.t + ph, "class": "graph-cursor" });
    svg.appendChild(cursor);
    view.cursor = cursor;
    view.graphX = gx;

    var wrap = h("div", "graph-wrap");
    wrap.appendChild(svg);
    var tip = h("div", "graph-tip");
    tip.hidden = true;
    wrap.appendChild(tip);

    // The ply under the pointer: the plot's x scale, read through the drawn size (the graph
    // keeps its proportions, so one scale serves both axes).
    function plyAt(ev) {
      var rect = svg.getBoundingClientRect();
      var x = ((ev.clientX - rect.left) / rect.width) * GRAPH_W;
      return Math.max(0, Math.min(g.e.length - 1, Math.round(((x - PLOT.l) / pw) * n)));
    }
    svg.addEventListener("click", function (ev) { setPly(view, plyAt(ev)); });
    svg.addEventListener("mousemove", function (ev) {
      var ply = plyAt(ev), rect = svg.getBoundingClientRect(), scale = rect.width / GRAPH_W;
      tip.textContent = plyText(g, ply);
      tip.setAttribute("data-ply", ply);
      tip.hidden = false;
      hover.setAttribute("x1", gx(ply).toFixed(1));
      hover.setAttribute("x2", gx(ply).toFixed(1));
      hover.setAttribute("visibility", "visible");
      // Beside the point, on the side with more room, and never over the pointer.
      var left = gx(ply) * scale, top = gy(winChance(g.e[ply])) * scale;
      var right = left > rect.width / 2;
      tip.style.left = right ? "" : (left + 12) + "px";
      tip.style.right = right ? (rect.width - left + 12) + "px" : "";
      tip.style.top = Math.max(0, Math.min(rect.height - 24, top - 12)) + "px";
    });
    svg.addEventListener("mouseleave", function () {
      tip.hidden = true;
      hover.setAttribute("visibility", "hidden");
    });
    return wrap;
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
    // Before a marked move, the engine's better move is drawn on the board.
    var arrows = view.best[ply] ? [[view.best[ply], "best"]] : [];
    view.boardBox.replaceChildren(drawBoard(pos[ply], ply > 0 ? g._moves[ply - 1] : null, BOARD_PX, view.flipped,
                                            arrows));
    view.boardBox.setAttribute("data-fen", fen);
    view.boardBox.setAttribute("data-ply", ply);
    view.section.setAttribute("data-ply", ply);
    view.orientation.textContent = view.flipped ? "Black's view" : "White's view";
    var x = view.graphX(ply);
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
    var sc = g.e[ply], white = gaugeChance(sc);
    // The bar: White's share from the bottom (from the top when the board is flipped).
    view.barWhite.style.height = white.toFixed(1) + "%";
    view.bar.classList.toggle("flipped", view.flipped);
    view.bar.setAttribute("data-white", white.toFixed(1));
    view.bar.setAttribute("data-score", scoreText(sc));
    view.bar.title = "White's win chance " + white.toFixed(0) + "% (" + scoreText(sc) + ")";
    // The score at the end of the side ahead, as on lichess: on White's share or on Black's.
    var whiteAhead = white >= 50;
    view.barText.textContent = scoreText(sc);
    view.barText.className = "evalbar-text " + (whiteAhead ? "on-white" : "on-black") +
      (whiteAhead !== view.flipped ? " at-bottom" : " at-top");
    view.info.textContent = (ply === 0 ? "Start" : "After " + moveLabel(g, ply)) + " · " + scoreText(sc) +
      " · White's win chance " + white.toFixed(0) + "%" +
      (view.best[ply] ? " · green arrow: the engine's better move" : "");
  }

  function moveNumber(g, ply) {
    var start = gamePositions(g)[0];
    var index = ply - 1 + (start.turn === "b" ? 1 : 0);
    return start.full + Math.floor(index / 2);
  }

  // "12. Nf3" or "12… Nf6": the move played at `ply`, or the SAN `san` played there instead.
  function numbered(g, ply, san) {
    var white = gamePositions(g)[ply - 1].turn === "w";
    return moveNumber(g, ply) + (white ? ". " : "… ") + san;
  }

  function moveLabel(g, ply) {
    return numbered(g, ply, g._sans[ply - 1] + (MARK[g.j.charAt(ply - 1)] || ""));
  }

  // The moves `sans` from ply `ply` on, numbered as on a score sheet: "2… Nc6 3. Nc3 Nf6".
  function lineText(g, ply, sans) {
    var out = [];
    var white = gamePositions(g)[ply - 1].turn === "w";
    var number = moveNumber(g, ply);
    sans.forEach(function (san, i) {
      if (white) out.push(number + ". " + san);
      else {
        out.push(i === 0 ? number + "… " + san : san);
        number++;
      }
      white = !white;
    });
    return out.join(" ");
  }

  function player(g, colour) {
    var elo = g.h[colour + "Elo"];
    return tag(g, colour) + (elo && elo !== "?" && elo !== "-" ? " (" + elo + ")" : "");
  }

  function gameTitle(g) {
    return "#" + g.n + "  " + player(g, "White") + " – " + player(g, "Black") + "  " + g.r;
  }

  function counted(n, one, many) { return n + " " + (n === 1 ? one : many); }

  // Each side's accuracy, ACPL and marked moves, one row each.
  function figuresTable(g) {
    var table = h("table", "figures");
    var head = h("tr");
    ["", "Accuracy", "ACPL", "Inaccuracies", "Mistakes", "Blunders"].forEach(function (t, i) {
      head.appendChild(h("th", i ? "num" : null, t));
    });
    table.appendChild(h("thead")).appendChild(head);
    var body = table.appendChild(h("tbody"));
    ["White", "Black"].forEach(function (side, k) {
      var row = h("tr");
      row.setAttribute("data-side", side.toLowerCase());
      row.appendChild(h("th", null, side));
      var counts = (g.k && g.k[k]) || [null, null, null];
      [fmt(g.a[k], 1), fmt(g.c[k], 1), counts[0], counts[1], counts[2]].forEach(function (v) {
        row.appendChild(h("td", "num", v === null || v === undefined ? "–" : v));
      });
      body.appendChild(row);
    });
    return table;
  }

  function swatch(cls) {
    var e = h("span", "swatch " + cls);
    e.setAttribute("aria-hidden", "true");
    return e;
  }

  function mistakeCard(g, view, x) {
    var before = x[0]; // the ply of the position before the move
    var ply = before + 1;
    var p = g._pos[before];
    var kind = MARK_NAME[g.j.charAt(before)] || "";
    var item = h("div", "mistake-card " + kind);
    item.setAttribute("data-ply", ply);
    // The position before the move, seen from the side that made it, with the move played
    // and the engine's choice drawn as arrows.
    var flipped = p.turn === "b";
    var boardBox = h("div", "mistake-board");
    boardBox.appendChild(drawBoard(p, before > 0 ? g._moves[before - 1] : null, MISTAKE_BOARD_PX, flipped,
                                   [[uciSquares(g._moves[before]), "played " + kind], [view.best[before], "best"]]));
    boardBox.appendChild(h("p", "board-caption", (flipped ? "Black" : "White") + "'s view"));
    item.appendChild(boardBox);
    var text = h("div", "mistake-text");
    var played = h("p", "played");
    played.appendChild(swatch("played " + kind));
    played.appendChild(document.createTextNode(moveLabel(g, ply) + " (" + kind + ")"));
    text.appendChild(played);
    var best = h("p", "best");
    best.appendChild(swatch("best"));
    best.appendChild(document.createTextNode("Best: "));
    best.appendChild(h("b", "best-move", x[3] ? numbered(g, ply, x[3]) : "–"));
    var line = x[4] ? x[4].split(" ").slice(1) : [];
    if (x[3] && line.length) best.appendChild(h("span", "best-line", ", then " + lineText(g, ply + 1, line)));
    text.appendChild(best);
    text.appendChild(h("p", "loss", "Loss: " + x[1].toFixed(1) + " points of win chance, " + x[2] + " centipawns"));
    item.appendChild(text);
    item.addEventListener("click", function () { setPly(view, ply); });
    return item;
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
    var view = { g: g, section: section, ply: 0, moveSpans: {}, best: {} };
    section.kibitzView = view;
    g.x.forEach(function (x) { view.best[x[0]] = x[3] ? sanSquares(g._pos[x[0]], x[3]) : null; });
    section.appendChild(figuresTable(g));
    var top = h("div", "game-top");
    var left = h("div", "game-left");
    var boardRow = h("div", "board-row");
    view.bar = h("div", "evalbar");
    view.bar.style.height = squaresHeight(BOARD_PX).toFixed(1) + "px";
    view.barWhite = h("div", "evalbar-white");
    view.bar.appendChild(view.barWhite);
    view.barText = h("span", "evalbar-text");
    view.bar.appendChild(view.barText);
    boardRow.appendChild(view.bar);
    view.boardBox = h("div", "board");
    view.boardBox.tabIndex = 0;
    view.boardBox.title = "Arrow keys: left / right one move, up / down ten, Home / End";
    boardRow.appendChild(view.boardBox);
    left.appendChild(boardRow);
    var under = h("div", "under-board");
    view.flipped = false;
    var flip = h("button", "flip", "Flip board");
    flip.type = "button";
    flip.addEventListener("click", function () { view.flipped = !view.flipped; setPly(view, view.ply); });
    under.appendChild(flip);
    view.orientation = h("span", "board-caption orientation");
    under.appendChild(view.orientation);
    left.appendChild(under);
    view.info = h("p", "info");
    left.appendChild(view.info);
    var right = h("div", "game-right");
    right.appendChild(h("p", "graph-caption", "White's win chance by move (hover for the figures, click to go there)"));
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
    section.addEventListener("focusin", function () { active = view; });
    if (g.x.length) {
      var mistakes = h("div", "mistakes");
      mistakes.appendChild(h("h4", null, "Mistakes"));
      var legend = h("p", "legend");
      legend.appendChild(swatch("played blunder"));
      legend.appendChild(document.createTextNode(" the move played (red: blunder, orange: mistake, blue: inaccuracy)   "));
      legend.appendChild(swatch("best"));
      legend.appendChild(document.createTextNode(" the engine's better move"));
      mistakes.appendChild(legend);
      g.x.forEach(function (x) { mistakes.appendChild(mistakeCard(g, view, x)); });
      section.appendChild(mistakes);
    }
    // Drawn as the page scrolls: the game the keys move stays the one they moved.
    var keep = active;
    setPly(view, 0);
    active = keep;
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

  // Opens game i at its section: the arrow keys move its board at once (the board takes the
  // keyboard focus, without scrolling the page a second time).
  function openGame(i) {
    var section = ensure(i);
    section.scrollIntoView({ block: "start" });
    var view = section.kibitzView;
    if (!view) return;
    active = view;
    if (GAMES[i].m && GAMES[i].m[1] >= 0 && document.getElementById("sort").value === "blunder") {
      // Sorted by the largest loss: at that move.
      setPly(view, GAMES[i].m[1] + 1);
    }
    view.boardBox.focus({ preventScroll: true });
  }

  more.addEventListener("click", showMore);
  var select = document.getElementById("sort");
  select.addEventListener("change", function () { sortGames(select.value); });
  sortGames(select.value);

  // For tests and the curious: the FEN of every position of game i, as the board shows them,
  // and the squares the arrows would join for a move given in SAN.
  function fens(i) { return gamePositions(GAMES[i]).map(toFen); }
  function squares(fen, san) {
    var sq = sanSquares(parseFen(fen), san);
    return sq ? [squareName(sq[0]), squareName(sq[1])] : null;
  }
  window.kibitzReport = { games: GAMES.length, ensure: ensure, fens: fens, squares: squares };
  document.body.setAttribute("data-ready", "1");
  if (window.performance && performance.mark) performance.mark("kibitz-ready");
})();
