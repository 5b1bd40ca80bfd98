// The viewer's only script: stepping through a game's moves by hand or
// on autoplay, and refreshing live pages when the server says the stores
// changed. It adds text only through textContent and moves server-rendered
// nodes around, so nothing an agent wrote is ever parsed as markup here.
// The same file runs inline in a downloaded game, where nothing is live.
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
    var playBtn = document.getElementById("play");
    var speed = document.getElementById("speed");
    var cur = 0;
    var timer = null;

    function show(i) {
      i = Math.max(0, Math.min(last, i));
      cur = i;
      frames.forEach(function (f) { f.hidden = parseInt(f.dataset.ply, 10) !== i; });
      items.forEach(function (li) { li.classList.toggle("current", parseInt(li.dataset.ply, 10) === i); });
      bars.forEach(function (b) { b.classList.toggle("current", parseInt(b.dataset.ply, 10) === i); });
      slider.value = String(i);
      label.textContent = i + " / " + last;
      viewer.dataset.ply = String(i);
      var li = document.querySelector("ol.moves li.current");
      if (li && li.scrollIntoView) li.scrollIntoView({ block: "nearest" });
      if (history.replaceState) {
        try { history.replaceState(null, "", "#ply=" + i); } catch (e) { /* a file opened offline may refuse */ }
      }
    }

    function pause() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      playBtn.textContent = "▶ play";
      playBtn.setAttribute("aria-pressed", "false");
      viewer.dataset.playing = "";
    }
    function play() {
      if (cur >= last) show(0);
      if (timer !== null) clearInterval(timer);
      timer = setInterval(function () {
        if (cur >= last) { pause(); return; }
        show(cur + 1);
        if (cur >= last) pause();
      }, parseInt(speed.value, 10) || 700);
      playBtn.textContent = "❚❚ pause";
      playBtn.setAttribute("aria-pressed", "true");
      viewer.dataset.playing = "1";
    }
    function toggle() { if (timer !== null) pause(); else play(); }
    // Stepping by hand stops the autoplay.
    function step(i) { pause(); show(i); }

    document.getElementById("first").addEventListener("click", function () { step(0); });
    document.getElementById("prev").addEventListener("click", function () { step(cur - 1); });
    document.getElementById("next").addEventListener("click", function () { step(cur + 1); });
    document.getElementById("lastbtn").addEventListener("click", function () { step(last); });
    playBtn.addEventListener("click", toggle);
    speed.addEventListener("change", function () { if (timer !== null) play(); });
    slider.addEventListener("input", function () { step(parseInt(slider.value, 10)); });
    items.forEach(function (li) { li.addEventListener("click", function () { step(parseInt(li.dataset.ply, 10)); }); });
    bars.forEach(function (b) { b.addEventListener("click", function () { step(parseInt(b.dataset.ply, 10)); }); });
    document.querySelectorAll("a.jump").forEach(function (a) {
      a.addEventListener("click", function (e) {
        e.preventDefault();
        step(parseInt(a.dataset.ply, 10));
        viewer.scrollIntoView && viewer.scrollIntoView({ block: "start" });
      });
    });
    document.addEventListener("keydown", function (e) {
      var t = e.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT") && t !== slider) return;
      var k = e.key;
      if (k === " " || k === "Spacebar") {
        if (t && t.tagName === "BUTTON") return; // the button's own click
        toggle();
      } else if (k === "ArrowRight" || k === "ArrowDown") step(cur + 1);
      else if (k === "ArrowLeft" || k === "ArrowUp") step(cur - 1);
      else if (k === "Home") step(0);
      else if (k === "End") step(last);
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
    var refresh = function () {
      if (busy) return;
      busy = true;
      fetch(location.href, { cache: "no-store" }).then(function (r) { return r.text(); }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("main");
        var main = document.getElementById("main");
        if (fresh && main) main.replaceWith(document.adoptNode(fresh));
      }).catch(function () {}).then(function () { busy = false; });
    };
    es.addEventListener("update", refresh);
    // Boards of games in progress: only pages that show them refresh.
    if (document.body.dataset.liveMoves) es.addEventListener("moves", refresh);
    es.onerror = function () { if (badge) badge.hidden = true; };
  }

  setupGame();
  setupLive();
})();
