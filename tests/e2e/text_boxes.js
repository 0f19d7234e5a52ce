// Injected into a copy of report.html by tests/e2e/test_html.sh before Chromium renders it, so
// that the browser's own layout (its fonts, its text metrics) judges the charts: for every chart
// (an svg element of class "chart"), each text element whose box extends beyond the chart's box,
// and each pair of text elements whose boxes overlap, by more than TOL pixels. The findings go
// into the DOM, in a pre element whose id is hprun-text-check, which --dump-dom prints: a first
// line "checked N texts in M charts" (so that a check that did not run is told apart from one
// that found nothing), then one line per finding. This comment names no tag in angle brackets:
// the test counts the charts of the dumped DOM, which holds this script too.
(function () {
  var TOL = 1;
  var out = [];
  var charts = document.querySelectorAll("svg.chart");
  var ntext = 0;
  function name(t) {
    return JSON.stringify(t.textContent.slice(0, 60));
  }
  charts.forEach(function (svg) {
    var s = svg.getBoundingClientRect();
    var texts = Array.prototype.slice.call(svg.querySelectorAll("text"));
    var boxes = texts.map(function (t) {
      return t.getBoundingClientRect();
    });
    ntext += texts.length;
    boxes.forEach(function (b, i) {
      if (b.width === 0 && b.height === 0) return;
      if (b.left < s.left - TOL || b.right > s.right + TOL || b.top < s.top - TOL || b.bottom > s.bottom + TOL)
        out.push(svg.id + ": clipped " + name(texts[i]) + " [" + Math.round(b.left - s.left) + "," +
          Math.round(b.top - s.top) + " .. " + Math.round(b.right - s.left) + "," +
          Math.round(b.bottom - s.top) + "] outside " + Math.round(s.width) + "x" + Math.round(s.height));
      for (var j = i + 1; j < boxes.length; j++) {
        var c = boxes[j];
        var w = Math.min(b.right, c.right) - Math.max(b.left, c.left);
        var h = Math.min(b.bottom, c.bottom) - Math.max(b.top, c.top);
        if (w > TOL && h > TOL)
          out.push(svg.id + ": overlap " + name(texts[i]) + " and " + name(texts[j]) + " by " +
            Math.round(w) + "x" + Math.round(h) + " px");
      }
    });
  });
  var pre = document.createElement("pre");
  pre.id = "hprun-text-check";
  pre.textContent = "checked " + ntext + " texts in " + charts.length + " charts\n" + out.join("\n");
  document.body.appendChild(pre);
})();
