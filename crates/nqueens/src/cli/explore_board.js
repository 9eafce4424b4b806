// The N-Queens board for the search explorer: queens, the queen being tried,
// the queen that attacks it (a red line, the dead end's constraint), and the
// squares crossed out by propagation, each with why on hover or tap.
CspExplore.painter({
  legend: [
    ["#1d2430", "\u265B queen placed"],
    ["#1d4ed8", "\u265B queen being tried"],
    ["#c62828", "dead end: the attacking line, or the row left without a square"],
    ["#9aa0a8", "\u2715 square crossed out by propagation (hover or tap: why)"]
  ],
  build: function (wrap, run) {
    var n = run.painter.n, board = document.createElement("div");
    board.className = "qboard";
    board.style.setProperty("--n", String(Math.max(n, 1)));
    for (var r = 0; r < n; r++) {
      for (var c = 0; c < n; c++) {
        var sq = document.createElement("div");
        sq.className = "sq " + ((r + c) % 2 ? "dark" : "light");
        sq.setAttribute("data-testid", "square");
        sq.setAttribute("data-row", r);
        sq.setAttribute("data-col", c);
        sq.setAttribute("data-var", run.painter.rows[r]);
        sq.setAttribute("data-value", c);
        sq.setAttribute("data-state", "empty");
        board.appendChild(sq);
      }
    }
    var line = document.createElement("div");
    line.className = "qline";
    line.hidden = true;
    board.appendChild(line);
    return board;
  },
  paint: function (board, view) {
    var data = view.run.painter, n = data.n, rows = data.rows;
    var squares = board.querySelectorAll("[data-testid=square]");
    for (var i = 0; i < squares.length; i++) {
      var sq = squares[i], r = +sq.getAttribute("data-row"), c = +sq.getAttribute("data-col");
      var st = view.state(rows[r], c);
      var word = st === "assigned" ? "queen" : st;
      sq.setAttribute("data-state", word);
      sq.textContent = word === "queen" || word === "tried" ? "\u265B" : word === "crossed" ? "\u2715" : "";
      sq.classList.toggle("dead", word === "tried" && view.tried.rejected);
      sq.classList.toggle("wiped", view.wiped === rows[r]);
      sq.title = view.why(rows[r], c);
    }
    var line = board.querySelector(".qline"), t = view.tried, hit = null;
    if (t && t.rejected && t.reason && t.reason.constraint !== null && t.reason.constraint !== undefined) {
      var guard = data.lines[t.reason.constraint], tr = rows.indexOf(t.v), tc = t.value;
      if (guard) {
        for (var row = 0; row < n && !hit; row++) {
          if (row === tr || view.assigned[rows[row]] === undefined) continue;
          if (guard.rows && guard.rows.indexOf(row) < 0) continue;
          var qc = view.assigned[rows[row]];
          var col = qc === tc, diag = row - qc === tr - tc, anti = row + qc === tr + tc;
          var on = guard.kind === "column" ? col : guard.kind === "diagonal" ? diag
            : guard.kind === "anti-diagonal" ? anti : col || diag || anti;
          if (on) hit = [row, qc];
        }
      }
      if (hit) {
        // Percentages of the (square) board: centre to centre.
        var x1 = (tc + 0.5) / n * 100, y1 = (tr + 0.5) / n * 100;
        var x2 = (hit[1] + 0.5) / n * 100, y2 = (hit[0] + 0.5) / n * 100;
        line.style.left = x1 + "%";
        line.style.top = y1 + "%";
        line.style.width = Math.sqrt((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)) + "%";
        line.style.transform = "rotate(" + Math.atan2(y2 - y1, x2 - x1) + "rad)";
        line.title = view.reasonText(t.reason) + " with the queen on row " + hit[0] + ", column " + hit[1];
      }
    }
    line.hidden = !hit;
  }
});
