// The layout check of test/cli/report.sh (issue 32, item 4), injected into a copy of a report
// page and run by headless Chromium: every SVG text lies inside its figure, no two texts of a
// figure overlap, no two tick labels of one axis read the same, and no label is cut short with an
// ellipsis. It writes what it found to the body (data-layout, data-layout-texts).
(function () {
  var problems = [], texts = 0;
  function box(e) { var r = e.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom}; }
  // A text's own lines: its text and each tspan's, without the <title> tooltip inside it.
  function lines(e) {
    var out = [], own = "";
    for (var c = e.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) own += c.nodeValue;
      else if (c.nodeName.toLowerCase() === "tspan") out.push(c.textContent);
    }
    if (own.trim()) out.unshift(own);
    return out;
  }
  function label(e) { return (e.getAttribute("class") || "text") + " '" + lines(e).join(" / ") + "'"; }
  var svgs = document.querySelectorAll("svg");
  for (var s = 0; s < svgs.length; s++) {
    var svg = svgs[s], fig = box(svg), list = svg.querySelectorAll("text"), boxes = [];
    var name = svg.closest("[id]") ? svg.closest("[id]").id : "svg " + s;
    for (var i = 0; i < list.length; i++) {
      var e = list[i], b = box(e);
      if (!lines(e).join("").trim() || b.r - b.l < 0.5) continue;
      texts++;
      if (b.l < fig.l - 1 || b.r > fig.r + 1 || b.t < fig.t - 1 || b.b > fig.b + 1)
        problems.push(name + ": " + label(e) + " outside its figure");
      if (lines(e).some(function (l) { return /(\.\.\.|\u2026)\s*$/.test(l); }))
        problems.push(name + ": " + label(e) + " cut short");
      for (var j = 0; j < boxes.length; j++) {
        var o = boxes[j], w = Math.min(b.r, o.b.r) - Math.max(b.l, o.b.l), h = Math.min(b.b, o.b.b) - Math.max(b.t, o.b.t);
        if (w > 1 && h > 1) problems.push(name + ": " + label(e) + " overlaps " + label(o.e));
      }
      boxes.push({e: e, b: b});
    }
    var axes = {};
    var ticks = svg.querySelectorAll("text.tick");
    for (var k = 0; k < ticks.length; k++) {
      var a = ticks[k].getAttribute("text-anchor") || "start", key = a + "|" + ticks[k].textContent;
      if (axes[key]) problems.push(name + ": two tick labels '" + ticks[k].textContent + "' on one axis");
      axes[key] = 1;
    }
  }
  document.body.setAttribute("data-layout-texts", String(texts));
  document.body.setAttribute("data-layout", JSON.stringify(problems));
})();
