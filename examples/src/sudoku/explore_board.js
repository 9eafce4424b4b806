// The Sudoku grid for the search explorer: givens in bold, decided cells in
// blue, the cell being tried outlined (red at a dead end), and in each open
// cell its candidates, struck out once propagation removed them.
CspExplore.painter({
  legend: [
    ["#1d2430", "given (bold)"],
    ["#2f6fd1", "decided by the search"],
    ["#ffe08a", "cell being tried (red: dead end)"],
    ["#c9cdd3", "candidate struck out by propagation (hover or tap: why)"]
  ],
  build: function (wrap, run) {
    var cells = run.painter.cells, board = document.createElement("div");
    board.className = "sboard";
    for (var i = 0; i < 81; i++) {
      var r = Math.floor(i / 9), c = i % 9, sq = document.createElement("div");
      sq.className = "scell" + (c % 3 === 2 && c < 8 ? " rb" : "") + (r % 3 === 2 && r < 8 ? " bb" : "");
      sq.setAttribute("data-testid", "square");
      sq.setAttribute("data-row", r);
      sq.setAttribute("data-col", c);
      sq.setAttribute("data-state", "empty");
      var big = document.createElement("div");
      big.className = "big";
      sq.appendChild(big);
      var cands = document.createElement("div");
      cands.className = "cands";
      for (var d = 1; d <= 9; d++) {
        var k = document.createElement("span");
        k.setAttribute("data-testid", "candidate");
        k.setAttribute("data-var", cells[i]);
        k.setAttribute("data-value", d);
        k.textContent = String(d);
        cands.appendChild(k);
      }
      sq.appendChild(cands);
      board.appendChild(sq);
    }
    return board;
  },
  paint: function (board, view) {
    var cells = view.run.painter.cells, givens = view.run.painter.givens;
    var squares = board.querySelectorAll("[data-testid=square]");
    for (var i = 0; i < squares.length; i++) {
      var sq = squares[i], v = cells[i], given = givens[i];
      var t = view.tried && view.tried.v === v ? view.tried : null;
      var value = given || (t ? t.value : view.assigned[v]);
      var state = t ? "tried" : view.assigned[v] !== undefined ? "assigned" : given ? "given" : "empty";
      sq.setAttribute("data-state", state);
      sq.classList.toggle("given", !!given);
      sq.classList.toggle("dead", !!(t && t.rejected));
      sq.classList.toggle("wiped", view.wiped === v);
      sq.firstChild.textContent = value ? String(value) : "";
      sq.title = (given ? "given; " : "") + (t || view.assigned[v] !== undefined ? view.why(v, value)
        : given ? view.run.vars[v] + " = " + given : view.run.vars[v] + ": open");
      var ks = sq.lastChild.children;
      for (var d = 0; d < 9; d++) {
        var st = view.state(v, d + 1);
        ks[d].setAttribute("data-state", st);
        ks[d].title = view.why(v, d + 1);
      }
    }
  }
});
