"use strict";
// The search explorer: replays the traces embedded in this page, step by step.
// A step is one event, except that `select` joins the next step and the
// consecutive `prune` events of one node make one step (csp-core's
// `trace::steps` is the same rule, `GridState::at` the same state).
var CspExplore = (function () {
  var KINDS = { not_promising: "not promising", check_failed: "check failed",
    conflict: "conflict", objective_bound: "objective bound" };
  var COUNTERS = ["tried", "accepted", "rejected", "pruned", "backtracks", "solutions", "backjumps"];
  var NC = COUNTERS.length;
  var painterImpl = null;

  function readJson(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }

  function Run(index) {
    var head = readJson("csp-run-" + index);
    var text = document.getElementById("csp-trace-" + index).textContent;
    var events = [];
    text.split("\n").forEach(function (line) {
      if (!line.trim()) return;
      var e = JSON.parse(line);
      if (e.event !== "model") events.push(e);
    });
    var model = readJson("csp-model-" + head.model);
    this.index = index;
    this.head = head;
    this.name = head.name;
    this.vars = model.vars;
    this.constraints = model.constraints;
    this.domains = model.domains;
    this.painter = model.painter;
    this.events = events;
    this.cutSteps();
    this.buildTree();
  }

  Run.prototype.cutSteps = function () {
    var steps = [], start = 0, lastPrune = null, ev = this.events;
    for (var i = 0; i < ev.length; i++) {
      var e = ev[i];
      if (e.event === "select") continue;
      if (e.event === "truncated") break;
      if (e.event === "prune") {
        if (lastPrune === e.node && start === i && steps.length) {
          steps[steps.length - 1][1] = i + 1; start = i + 1; continue;
        }
        lastPrune = e.node;
      } else {
        lastPrune = null;
      }
      steps.push([start, i + 1]);
      start = i + 1;
    }
    this.steps = steps;
    // Cumulative counters after k steps: counts[k * NC + c].
    var counts = new Int32Array((steps.length + 1) * NC);
    var idx = { "try": 0, accept: 1, reject: 2, prune: 3, backtrack: 4, solution: 5, backjump: 6 };
    for (var k = 0; k < steps.length; k++) {
      for (var c = 0; c < NC; c++) counts[(k + 1) * NC + c] = counts[k * NC + c];
      for (var j = steps[k][0]; j < steps[k][1]; j++) {
        var n = idx[ev[j].event];
        if (n !== undefined) counts[(k + 1) * NC + n]++;
      }
    }
    this.counts = counts;
  };

  Run.prototype.count = function (k, name) {
    return this.counts[k * NC + COUNTERS.indexOf(name)];
  };

  // The tree: one node per `try`, with its outcome and the steps they happen at.
  Run.prototype.buildTree = function () {
    var nodes = [], byId = {}, jumps = [], steps = this.steps, ev = this.events;
    for (var k = 0; k < steps.length; k++) {
      for (var j = steps[k][0]; j < steps[k][1]; j++) {
        var e = ev[j], n;
        if (e.event === "try") {
          n = { id: e.id, parent: e.parent, depth: e.depth, v: e["var"], value: e.value,
            tryStep: k, endStep: null, outcome: "open", solution: false, children: [] };
          n.index = nodes.length;
          byId[e.id] = n; nodes.push(n);
          if (byId[e.parent]) byId[e.parent].children.push(n);
        } else if (e.event === "accept" && byId[e.id]) {
          byId[e.id].outcome = "accepted"; byId[e.id].endStep = k;
        } else if (e.event === "reject" && byId[e.id]) {
          byId[e.id].outcome = "rejected"; byId[e.id].endStep = k;
        } else if (e.event === "solution" && byId[e.node]) {
          byId[e.node].solution = true; byId[e.node].solStep = k;
        } else if (e.event === "backjump") {
          // Drawn from the dead end (the node its level hangs below) back
          // to the node whose value the jump undoes (0: the root).
          jumps.push({ from: e.dead_end, to: e.target, step: k });
        }
      }
    }
    this.nodes = nodes;
    this.byId = byId;
    this.jumps = jumps;
    this.maxDepth = nodes.reduce(function (m, n) { return Math.max(m, n.depth); }, 0);
  };

  // The positions (numbers of steps) a run stops at when advancing by `mode`.
  Run.prototype.ends = function (mode) {
    var out = [0], steps = this.steps, ev = this.events, last = steps.length;
    if (mode === "step") {
      for (var k = 1; k <= last; k++) out.push(k);
      return out;
    }
    for (var s = 0; s < last; s++) {
      var e = ev[steps[s][1] - 1], stop = null;
      if (mode === "node" && e.event === "try" && s > 0) stop = s;
      if (mode === "depth" && (e.event === "accept" || e.event === "solution")) stop = s + 1;
      if (stop !== null && stop > out[out.length - 1]) out.push(stop);
    }
    if (last > out[out.length - 1]) out.push(last);
    return out;
  };

  // The state after k steps: decisions on the path, the node being tried,
  // the values crossed out and by whom.
  Run.prototype.stateAt = function (k) {
    var stack = [], root = [], cur = null, rejected = false, last = null;
    var end = k > 0 ? this.steps[Math.min(k, this.steps.length) - 1][1] : 0;
    for (var i = 0; i < end; i++) {
      var e = this.events[i];
      switch (e.event) {
        case "try":
          stack.length = Math.max(0, e.depth - 1);
          rejected = false;
          cur = { id: e.id, v: e["var"], value: e.value, pruned: [], reason: null };
          break;
        case "prune":
          var p = { v: e["var"], value: e.value, c: e.constraint, pruning: e.pruning, node: e.node };
          var owner = cur && cur.id === e.node ? cur : null;
          for (var s = stack.length - 1; !owner && s >= 0; s--) if (stack[s].id === e.node) owner = stack[s];
          (owner ? owner.pruned : root).push(p);
          break;
        case "accept":
          if (cur && cur.id === e.id) { stack.push(cur); cur = null; }
          break;
        case "reject":
          rejected = true;
          if (cur) cur.reason = e;
          break;
        case "solution":
          cur = null; rejected = false;
          break;
        case "backtrack":
          stack.length = Math.max(0, e.depth - 1);
          cur = null; rejected = false;
          break;
        case "backjump":
          // The skipped levels are undone: the path keeps `to` decisions.
          stack.length = Math.min(stack.length, e.to);
          cur = null; rejected = false;
          break;
      }
      if (e.event !== "select") last = e;
    }
    return new View(this, k, stack, root, cur, rejected, last);
  };

  function View(run, k, stack, root, cur, rejected, last) {
    this.run = run; this.step = k; this.stack = stack; this.rejected = rejected;
    this.last = last;
    this.assigned = {};
    this.decisionOf = {};
    var self = this;
    stack.forEach(function (d) { self.assigned[d.v] = d.value; self.decisionOf[d.v] = d; });
    this.tried = cur ? { v: cur.v, value: cur.value, id: cur.id, rejected: rejected, reason: cur.reason } : null;
    this.crossed = {};
    this.nodes = {};
    root.forEach(function (p) { self.crossed[p.v + "," + p.value] = p; });
    stack.concat(cur ? [cur] : []).forEach(function (d) {
      self.nodes[d.id] = d;
      d.pruned.forEach(function (p) { self.crossed[p.v + "," + p.value] = p; });
    });
    this.wiped = cur && rejected && cur.reason ? cur.reason.wiped_out : null;
  }

  View.prototype.state = function (v, value) {
    if (this.tried && this.tried.v === v && this.tried.value === value) return "tried";
    if (this.assigned[v] === value) return "assigned";
    if (this.crossed[v + "," + value]) return "crossed";
    return "empty";
  };

  View.prototype.cname = function (c) {
    if (c === null || c === undefined) return "the objective bound";
    return this.run.constraints[c] || "c" + c;
  };

  View.prototype.decision = function (id) {
    var n = this.run.byId[id];
    return n ? "#" + id + " " + this.run.vars[n.v] + " = " + n.value : "the root";
  };

  View.prototype.reasonText = function (r) {
    // The front end's own sentence for this dead end, if it gave one.
    var own = this.run.head.reasons;
    if (own && r && own[r.id] !== undefined) return own[r.id];
    var words = KINDS[r.kind] || r.kind;
    var out = words;
    if (r.constraint !== null && r.constraint !== undefined) out += ": " + this.cname(r.constraint);
    if (r.wiped_out !== null && r.wiped_out !== undefined) out += ", " + this.run.vars[r.wiped_out] + " has no value left";
    return out;
  };

  // Why a cell shows what it shows, in words.
  View.prototype.why = function (v, value) {
    var name = this.run.vars[v];
    switch (this.state(v, value)) {
      case "tried":
        return this.tried.rejected
          ? "dead end at " + name + " = " + value + " (" + this.reasonText(this.tried.reason) + ")"
          : "#" + this.tried.id + " tries " + name + " = " + value;
      case "assigned":
        return name + " = " + value + " (decision #" + this.decisionOf[v].id + ", accepted)";
      case "crossed":
        var p = this.crossed[v + "," + value];
        return name + " \u2260 " + value + ": removed by " + this.cname(p.c) + " (" + p.pruning + ") after " +
          (p.node ? this.decision(p.node) : "the root");
      default:
        return name + " = " + value + " is still possible";
    }
  };

  // The last step in words, with a class for its tone.
  View.prototype.story = function () {
    var e = this.last;
    if (!e) return ["", "Step 0: nothing tried yet. Press Forward."];
    var vars = this.run.vars;
    switch (e.event) {
      case "try": return ["", "#" + e.id + " tries " + vars[e["var"]] + " = " + e.value + " (depth " + e.depth + ")"];
      case "prune":
        var n = 0, k;
        for (k in this.crossed) if (this.crossed[k].node === e.node) n++;
        return ["", e.pruning + " crossed out " + n + " value" + (n === 1 ? "" : "s") + " after " +
          (e.node ? this.decision(e.node) : "the root")];
      case "accept": return ["good", this.decision(e.id) + " accepted"];
      case "reject": return ["dead", "dead end: " + this.decision(e.id) + ", " + this.reasonText(e)];
      case "solution": return ["good", "solution " + this.run.count(this.step, "solutions") + " found"];
      case "backtrack": return ["dead", "backtrack: " + vars[e["var"]] + " has no value left at depth " + e.depth];
      case "backjump":
        var culprits = e.conflict.map(function (v) { return vars[v]; }).join(", ");
        return ["dead", "backjump: " + vars[e["var"]] + " has no value left at depth " + e.from +
          "; its conflict set is {" + culprits + "}, so the search goes back to depth " + e.to +
          (e.to === 0 ? " (the root)" : "") + ", skipping " + (e.from - 1 - e.to) + " level" +
          (e.from - 1 - e.to === 1 ? "" : "s")];
      default: return ["", e.event];
    }
  };

  // The generic painter: a grid of variables x values.
  var gridPainter = {
    build: function (panel, run) {
      var values = {};
      run.domains.forEach(function (d) { d.forEach(function (x) { values[x] = true; }); });
      var cols = Object.keys(values).map(Number).sort(function (a, b) { return a - b; });
      var grid = el("div", "grid");
      grid.style.gridTemplateColumns = "minmax(3em, auto) repeat(" + cols.length + ", minmax(1.4rem, 1fr))";
      grid.appendChild(el("div", "head", ""));
      cols.forEach(function (x) { grid.appendChild(el("div", "head", String(x))); });
      run.vars.forEach(function (name, v) {
        var head = el("div", "head", name);
        head.title = name;
        grid.appendChild(head);
        var dom = {};
        run.domains[v].forEach(function (x) { dom[x] = true; });
        cols.forEach(function (x, ci) {
          var c = el("div", dom[x] ? "cell" : "cell absent");
          if (dom[x]) {
            c.setAttribute("data-testid", "square");
            c.setAttribute("data-row", v);
            c.setAttribute("data-col", ci);
            c.setAttribute("data-var", v);
            c.setAttribute("data-value", x);
            c.setAttribute("data-state", "empty");
          }
          grid.appendChild(c);
        });
      });
      return grid;
    },
    paint: function (board, view) {
      var cells = board.querySelectorAll("[data-testid=square]");
      for (var i = 0; i < cells.length; i++) {
        var c = cells[i], v = +c.getAttribute("data-var"), x = +c.getAttribute("data-value");
        var st = view.state(v, x);
        c.setAttribute("data-state", st);
        c.classList.toggle("dead", st === "tried" && view.tried.rejected);
        c.classList.toggle("wiped", view.wiped === v);
        c.title = view.why(v, x);
      }
    }
  };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // One panel: a run's counters, board, story and tree.
  function Panel(tag, run) {
    this.run = run;
    var p = el("section", "panel");
    p.setAttribute("data-panel", tag);
    p.appendChild(el("h2", "", tag.toUpperCase() + ": " + run.name));
    var note = [];
    if (run.head.note) note.push(run.head.note);
    if (run.head.truncated !== null && run.head.truncated !== undefined) {
      note.push("The recording stopped after " + run.head.truncated.toLocaleString("en") +
        " events: the last step shown is where it stopped.");
    }
    p.appendChild(el("p", "note", note.join(" ")));
    var counters = el("div", "counters");
    this.counters = {};
    var self = this;
    COUNTERS.forEach(function (name) {
      // Only a search with look-back shows its backjumps.
      if (name === "backjumps" && !run.jumps.length) return;
      var s = el("span", "", name + " ");
      var b = el("b", "", "0");
      b.setAttribute("data-testid", name);
      s.appendChild(b);
      counters.appendChild(s);
      self.counters[name] = b;
    });
    p.appendChild(counters);
    var wrap = el("div", "board-wrap");
    this.board = (painterImpl || gridPainter).build(wrap, run);
    this.board.setAttribute("data-testid", "board");
    wrap.appendChild(this.board);
    p.appendChild(wrap);
    this.whyBox = el("p", "why");
    this.whyBox.setAttribute("data-testid", "why");
    this.whyBox.setAttribute("aria-live", "polite");
    p.appendChild(this.whyBox);
    this.board.addEventListener("click", function (ev) {
      var t = ev.target.closest("[data-var][data-value]");
      if (!t || !self.view) return;
      self.whyBox.textContent = self.view.why(+t.getAttribute("data-var"), +t.getAttribute("data-value"));
    });
    this.treeWrap = el("div", "tree-wrap");
    this.canvas = el("canvas");
    this.canvas.setAttribute("data-testid", "tree");
    this.canvas.setAttribute("aria-label", "State-space tree so far; click a node to jump to it");
    this.treeWrap.appendChild(this.canvas);
    p.appendChild(this.treeWrap);
    this.element = p;
  }

  Panel.prototype.show = function (k) {
    var run = this.run;
    this.view = run.stateAt(k);
    for (var name in this.counters) this.counters[name].textContent = String(run.count(k, name));
    (painterImpl || gridPainter).paint(this.board, this.view);
    var story = this.view.story();
    this.whyBox.textContent = "";
    this.whyBox.appendChild(el("span", story[0], story[1]));
    this.drawTree(k);
  };

  // Lays out the tree so far (the first `count` nodes): leaves in visit order,
  // each parent centred over its children. Returns the number of leaves.
  function layout(run, count) {
    var leaf = 0, i, n;
    for (i = count - 1; i >= 0; i--) {
      n = run.nodes[i];
      n.shown = 0;
      for (var c = 0; c < n.children.length && n.children[c].index < count; c++) n.shown++;
    }
    // Depth-first over the visible nodes, children before their parent's x.
    var order = [];
    var stack = [];
    for (i = 0; i < count; i++) if (!run.byId[run.nodes[i].parent]) stack.push(run.nodes[i]);
    stack.reverse();
    while (stack.length) {
      n = stack.pop();
      order.push(n);
      if (!n.shown) n.x = leaf++;
      for (var j = n.shown - 1; j >= 0; j--) stack.push(n.children[j]);
    }
    for (i = order.length - 1; i >= 0; i--) {
      n = order[i];
      if (n.shown) n.x = (n.children[0].x + n.children[n.shown - 1].x) / 2;
    }
    var roots = order.filter(function (m) { return !run.byId[m.parent]; });
    run.rootX = roots.length ? (roots[0].x + roots[roots.length - 1].x) / 2 : 0;
    return Math.max(leaf, 1);
  }

  Panel.prototype.geometry = function (leaves) {
    var run = this.run, avail = Math.max(this.treeWrap.clientWidth - 24, 100);
    var dx = Math.min(28, Math.max(3, avail / leaves));
    var width = Math.max(avail, Math.min(16000, Math.ceil(leaves * dx + 16)));
    dx = Math.min(dx, (width - 16) / leaves);
    var dy = run.maxDepth > 30 ? 12 : 24;
    return { dx: dx, dy: dy, width: width, height: (run.maxDepth + 1) * dy + 16,
      left: (width - 16 - leaves * dx) / 2 };
  };

  Panel.prototype.drawTree = function (k) {
    var run = this.run, c = this.canvas, ratio = window.devicePixelRatio || 1, count = 0;
    while (count < run.nodes.length && run.nodes[count].tryStep < k) count++;
    var g = this.geometry(layout(run, count));
    if (c.width !== Math.round(g.width * ratio) || c.height !== Math.round(g.height * ratio)) {
      c.width = Math.round(g.width * ratio); c.height = Math.round(g.height * ratio);
      c.style.width = g.width + "px"; c.style.height = g.height + "px";
    }
    this.g = g;
    this.count = count;
    var ctx = c.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, g.width, g.height);
    function X(x) { return 8 + g.left + (x + 0.5) * g.dx; }
    function Y(d) { return 8 + d * g.dy; }
    this.X = X; this.Y = Y;
    ctx.strokeStyle = "#b8c0ca"; ctx.lineWidth = 1;
    ctx.beginPath();
    var current = count ? run.nodes[count - 1] : null, i, n;
    for (i = 0; i < count; i++) {
      n = run.nodes[i];
      var parent = run.byId[n.parent];
      ctx.moveTo(parent ? X(parent.x) : X(run.rootX), parent ? Y(parent.depth) : Y(0));
      ctx.lineTo(X(n.x), Y(n.depth));
    }
    ctx.stroke();
    var r = Math.max(1.5, Math.min(5, g.dx / 2.4));
    ctx.fillStyle = "#555";
    ctx.beginPath(); ctx.arc(X(run.rootX), Y(0), r, 0, 7); ctx.fill();
    for (i = 0; i < count; i++) {
      n = run.nodes[i];
      var done = n.endStep !== null && n.endStep < k, sol = n.solution && n.solStep < k;
      ctx.fillStyle = !done ? "#6c9be0" : n.outcome === "rejected" ? "#c62828" : sol ? "#d4a017" : "#2e7d32";
      ctx.beginPath(); ctx.arc(X(n.x), Y(n.depth), sol ? r * 1.6 : r, 0, 7); ctx.fill();
    }
    // Backjumps: a dashed red arc from the dead end back to where the
    // search resumes.
    var drawn = 0;
    ctx.strokeStyle = "#c62828"; ctx.lineWidth = 1.5;
    if (ctx.setLineDash) ctx.setLineDash([4, 3]);
    run.jumps.forEach(function (j) {
      if (j.step >= k) return;
      var a = run.byId[j.from], b = run.byId[j.to];
      if ((j.from && (!a || a.index >= count)) || (j.to && (!b || b.index >= count))) return;
      var ax = a ? X(a.x) : X(run.rootX), ay = a ? Y(a.depth) : Y(0);
      var bx = b ? X(b.x) : X(run.rootX), by = b ? Y(b.depth) : Y(0);
      var bend = Math.max(12, (ay - by) * 0.6);
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      ctx.bezierCurveTo(ax + bend, ay, bx + bend, by, bx, by);
      ctx.stroke();
      drawn++;
    });
    if (ctx.setLineDash) ctx.setLineDash([]);
    c.setAttribute("data-jumps", String(drawn));
    if (current) {
      ctx.strokeStyle = "#1d4ed8"; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(X(current.x), Y(current.depth), r + 3, 0, 7); ctx.stroke();
      var w = this.treeWrap, cx = X(current.x), cy = Y(current.depth);
      if (cx < w.scrollLeft + 20 || cx > w.scrollLeft + w.clientWidth - 20) w.scrollLeft = cx - w.clientWidth / 2;
      if (cy < w.scrollTop + 10 || cy > w.scrollTop + w.clientHeight - 10) w.scrollTop = cy - w.clientHeight / 2;
    }
  };

  // The node drawn nearest a click, among those on show.
  Panel.prototype.nodeAt = function (px, py) {
    var best = null, bestD = 14 * 14;
    for (var i = 0; i < this.count; i++) {
      var n = this.run.nodes[i];
      var dx = this.X(n.x) - px, dy = this.Y(n.depth) - py, d = dx * dx + dy * dy;
      if (d < bestD) { bestD = d; best = n; }
    }
    return best;
  };

  // The page: runs, panels, the shared position t and the controls.
  // t starts at 1: the first frame shows the first decision, not an empty board.
  var app = { runs: [], panels: [], t: 1, mode: "step", a: 0, b: null, timer: null, hashTimer: null };

  function q(id) { return document.querySelector("[data-testid=\"" + id + "\"]"); }

  app.ends = function () {
    var mode = this.mode;
    return this.panels.map(function (p) { return p.run.ends(mode); });
  };

  app.maxT = function () {
    return Math.max.apply(null, this.ends().map(function (e) { return e.length - 1; }));
  };

  app.posOf = function (i, t) {
    var e = this.endsCache[i];
    return e[Math.min(t, e.length - 1)];
  };

  app.layout = function () {
    var main = document.getElementById("panels");
    main.textContent = "";
    this.panels = [new Panel("a", this.runs[this.a])];
    if (this.b >= 0) this.panels.push(new Panel("b", this.runs[this.b]));
    main.className = this.panels.length > 1 ? "two" : "";
    var self = this;
    this.panels.forEach(function (p, i) {
      main.appendChild(p.element);
      p.canvas.addEventListener("click", function (ev) {
        var rect = p.canvas.getBoundingClientRect();
        var n = p.nodeAt(ev.clientX - rect.left, ev.clientY - rect.top);
        if (n) self.jumpTo(i, n.tryStep + 1);
      });
    });
    this.endsCache = this.ends();
    this.go(Math.min(this.t, this.maxT()));
  };

  // Go to the first t at which panel i has reached step k.
  app.jumpTo = function (i, k) {
    var e = this.endsCache[i];
    for (var t = 0; t < e.length; t++) if (e[t] >= k) return this.go(t);
    this.go(e.length - 1);
  };

  app.go = function (t) {
    var max = this.maxT();
    this.t = Math.max(0, Math.min(t, max));
    var self = this;
    this.panels.forEach(function (p, i) { p.show(self.posOf(i, self.t)); });
    var tl = q("timeline");
    tl.max = String(max); tl.value = String(this.t);
    q("step").textContent = this.t + " / " + max;
    // While playing, the URL is updated at most twice a second (browsers
    // throttle pages that rewrite it faster).
    if (!this.timer) this.writeHash();
    else if (!this.hashTimer) {
      this.hashTimer = setTimeout(function () { self.hashTimer = null; self.writeHash(); }, 500);
    }
  };

  app.writeHash = function () {
    var hash = "#step=" + this.t + "&a=" + this.a + "&b=" + this.b +
      (this.mode !== "step" ? "&by=" + this.mode : "");
    if (location.hash !== hash) {
      try { history.replaceState(null, "", hash); } catch (err) { /* some viewers forbid it */ }
    }
  };

  // The next t at which panel A's counter `name` grows.
  app.next = function (name) {
    var run = this.panels[0].run, now = run.count(this.posOf(0, this.t), name), max = this.maxT();
    for (var t = this.t + 1; t <= max; t++) {
      if (run.count(this.posOf(0, t), name) > now) return this.go(t);
    }
    this.go(max);
  };

  app.play = function (on) {
    var btn = q("play");
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    btn.textContent = on ? "\u275A\u275A Pause" : "\u25B6 Play";
    if (!on) { this.writeHash(); return; }
    var self = this;
    (function tick() {
      if (self.t >= self.maxT()) { self.play(false); return; }
      self.go(self.t + 1);
      self.timer = setTimeout(tick, 1000 / +q("speed").value);
    })();
  };

  app.readHash = function () {
    var h = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var p = kv.split("=");
      if (p.length === 2) h[p[0]] = decodeURIComponent(p[1]);
    });
    var n = this.runs.length;
    if (h.a !== undefined && +h.a >= 0 && +h.a < n) this.a = +h.a;
    if (h.b !== undefined && /^-?\d+$/.test(h.b) && +h.b >= -1 && +h.b < n) this.b = +h.b;
    if (h.by === "node" || h.by === "depth") this.mode = h.by;
    if (h.step !== undefined && /^\d+$/.test(h.step)) this.t = +h.step;
  };

  function start() {
    var page = readJson("csp-page");
    document.getElementById("subtitle").textContent = page.subtitle || "";
    for (var i = 0; document.getElementById("csp-run-" + i); i++) app.runs.push(new Run(i));
    app.readHash();
    if (app.b === null) {
      // Strategy B: forward checking if it was recorded, else the second run.
      var fc = app.runs.map(function (r) { return r.name; }).indexOf("fc");
      app.b = fc > 0 && fc !== app.a ? fc : app.runs.length > 1 ? (app.a === 0 ? 1 : 0) : -1;
    }
    var sa = q("strategy-a"), sb = q("strategy-b"), sync = q("sync");
    sb.appendChild(new Option("none (one board)", "-1"));
    app.runs.forEach(function (r, i) {
      sa.appendChild(new Option(r.name, String(i)));
      sb.appendChild(new Option(r.name, String(i)));
    });
    sa.value = String(app.a); sb.value = String(app.b); sync.value = app.mode;
    sa.addEventListener("change", function () { app.a = +sa.value; app.layout(); });
    sb.addEventListener("change", function () { app.b = +sb.value; app.layout(); });
    sync.addEventListener("change", function () {
      var k = app.posOf(0, app.t);
      app.mode = sync.value; app.endsCache = app.ends(); app.jumpTo(0, k);
    });
    q("step-forward").addEventListener("click", function () { app.play(false); app.go(app.t + 1); });
    q("step-back").addEventListener("click", function () { app.play(false); app.go(app.t - 1); });
    q("next-dead-end").addEventListener("click", function () { app.play(false); app.next("rejected"); });
    q("next-solution").addEventListener("click", function () { app.play(false); app.next("solutions"); });
    q("play").addEventListener("click", function () { app.play(!app.timer); });
    q("timeline").addEventListener("input", function () { app.play(false); app.go(+q("timeline").value); });
    document.addEventListener("keydown", function (ev) {
      var tag = ev.target && ev.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      if (ev.key === "ArrowRight") { app.play(false); app.go(app.t + 1); ev.preventDefault(); }
      else if (ev.key === "ArrowLeft") { app.play(false); app.go(app.t - 1); ev.preventDefault(); }
      else if (ev.key === " ") { app.play(!app.timer); ev.preventDefault(); }
    });
    var resizing = null;
    window.addEventListener("resize", function () {
      clearTimeout(resizing);
      resizing = setTimeout(function () { app.go(app.t); }, 150);
    });
    legend(page);
    app.layout();
  }

  function legend(page) {
    var items = [["#2f6fd1", "assigned (" + page.rows + " \u00d7 " + page.cols + ")"],
      ["#ffe08a", "being tried"], ["#f4b4ae", "dead end"], ["#e3e5e8", "crossed out by propagation (hover or tap: why)"],
      ["#2e7d32", "tree: accepted"], ["#c62828", "tree: dead end"], ["#d4a017", "tree: solution"],
      ["#6c9be0", "tree: outcome not yet known"]];
    if (painterImpl && painterImpl.legend) items = painterImpl.legend.concat(items.slice(4));
    var box = document.getElementById("legend");
    items.forEach(function (it) {
      var s = el("span");
      var sw = el("i");
      sw.style.background = it[0];
      s.appendChild(sw);
      s.appendChild(document.createTextNode(it[1]));
      box.appendChild(s);
    });
    box.appendChild(el("span", "", "Keys: \u2190 \u2192 step, space play/pause. The URL keeps the step."));
  }

  return {
    start: start,
    // Registers a board painter: {build(wrap, run) -> element, paint(board, view), legend?}.
    painter: function (p) { painterImpl = p; },
    gridPainter: gridPainter,
    app: app
  };
})();
