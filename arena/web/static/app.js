// The viewer's only script: stepping through a game's plies, and
// refreshing live pages when the server says the stores changed. It adds
// text only through textContent and moves server-rendered nodes around, so
// nothing an agent wrote is ever parsed as markup here.
(function () {
  "use strict";

  function setupGame() {
    var viewer = document.getElementById("viewer");
    if (!viewer) return;
    var last = parseInt(viewer.dataset.last, 10) || 0;
    var frames = viewer.querySelectorAll(".frame");
    var items = document.querySelectorAll("ol.moves li");
    var bars = document.querySelectorAll("svg.chart .bar");
    var slider = document.getElementById("slider");
    var label = document.getElementById("plylabel");
    var cur = 0;

    function show(i) {
      i = Math.max(0, Math.min(last, i));
      cur = i;
      frames.forEach(function (f) { f.hidden = parseInt(f.dataset.ply, 10) !== i; });
      items.forEach(function (li) { li.classList.toggle("current", parseInt(li.dataset.ply, 10) === i); });
      bars.forEach(function (b) { b.classList.toggle("current", parseInt(b.dataset.ply, 10) === i); });
      slider.value = String(i);
      label.textContent = i + " / " + last;
      var li = document.querySelector("ol.moves li.current");
      if (li && li.scrollIntoView) li.scrollIntoView({ block: "nearest" });
      if (history.replaceState) history.replaceState(null, "", "#ply=" + i);
    }

    document.getElementById("first").addEventListener("click", function () { show(0); });
    document.getElementById("prev").addEventListener("click", function () { show(cur - 1); });
    document.getElementById("next").addEventListener("click", function () { show(cur + 1); });
    document.getElementById("lastbtn").addEventListener("click", function () { show(last); });
    slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
    items.forEach(function (li) { li.addEventListener("click", function () { show(parseInt(li.dataset.ply, 10)); }); });
    bars.forEach(function (b) { b.addEventListener("click", function () { show(parseInt(b.dataset.ply, 10)); }); });
    document.addEventListener("keydown", function (e) {
      if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) {
        if (e.target !== slider) return;
      }
      var k = e.key;
      if (k === "ArrowRight" || k === "ArrowDown") show(cur + 1);
      else if (k === "ArrowLeft" || k === "ArrowUp") show(cur - 1);
      else if (k === "Home") show(0);
      else if (k === "End") show(last);
      else return;
      e.preventDefault();
    });
    var m = /#ply=(\d+)/.exec(location.hash);
    show(m ? parseInt(m[1], 10) : 0);
  }

  // Live pages: on an update event, fetch this page again and swap in its
  // main element (parsed by the browser as an inert document).
  function setupLive() {
    if (!document.body.dataset.live || !window.EventSource) return;
    var badge = document.getElementById("live");
    var es = new EventSource("/events");
    var busy = false;
    es.addEventListener("hello", function () { if (badge) badge.hidden = false; });
    es.addEventListener("update", function () {
      if (busy) return;
      busy = true;
      fetch(location.href, { cache: "no-store" }).then(function (r) { return r.text(); }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("main");
        var main = document.getElementById("main");
        if (fresh && main) main.replaceWith(document.adoptNode(fresh));
      }).catch(function () {}).then(function () { busy = false; });
    });
    es.onerror = function () { if (badge) badge.hidden = true; };
  }

  setupGame();
  setupLive();
})();
