/* gallerygen viewer: a full-screen photo browser for album and moments pages.
   Hand-written, no dependencies. Without JavaScript every thumbnail is a plain
   link to its photo page, so this only enhances. */
(function () {
  "use strict";
  var t = window.gallerygenText || function (key) { return key; };

  /* A Live or Motion Photo's motion plays over its still while hovered or
     pressed (the LIVE button; a click from the keyboard toggles it). Muted:
     nothing on these pages ever plays sound on its own. */
  function liveMotion(frame, video, button, indicator) {
    indicator = indicator || button;   // what shows aria-pressed (the viewer's bar button)
    function start() {
      try { video.currentTime = 0; } catch (e) { /* not loaded yet */ }
      var started = video.play();
      if (started && started.catch) started.catch(function () {});
    }
    function play() {
      frame.classList.add("live-playing");
      if (indicator) indicator.setAttribute("aria-pressed", "true");
      var wanted = video.dataset.src;
      if (!video.getAttribute("src") && wanted) {
        // A private album's clip is opened first (sealed.js): playing the
        // sealed address would fail, and setting the opened one later would stop it.
        var opening = window.gallerygenOpenFile ? window.gallerygenOpenFile(wanted) : null;
        if (opening) {
          opening.then(function (plain) {
            if (video.dataset.src !== wanted || !frame.classList.contains("live-playing")) return;
            video.src = plain;
            start();
          }, function () {});
          return;
        }
        video.src = wanted;
      }
      start();
    }
    function stop() {
      video.pause();
      frame.classList.remove("live-playing");
      if (indicator) indicator.setAttribute("aria-pressed", "false");
    }
    video.muted = true;
    video.addEventListener("ended", stop);
    if (button) {
      button.addEventListener("pointerdown", function (event) { event.stopPropagation(); play(); });
      button.addEventListener("pointerup", stop);
      button.addEventListener("pointerleave", stop);
      button.addEventListener("click", function (event) {
        if (event.detail === 0) { if (frame.classList.contains("live-playing")) stop(); else play(); }
      });
    }
    return { play: play, stop: stop };
  }
  Array.prototype.forEach.call(document.querySelectorAll(".live-photo .live-frame"), function (frame) {
    var live = liveMotion(frame, frame.querySelector(".live-motion"), frame.querySelector(".live-button"));
    // Under reduced motion a Live Photo moves only when its button is pressed, never on a passing pointer.
    frame.addEventListener("mouseenter", function () {
      if (!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches)) live.play();
    });
    frame.addEventListener("mouseleave", live.stop);
  });

  /* Animations: anything that moves can be paused (WCAG 2.2.2), and with
     prefers-reduced-motion they start paused. Paused, a grid or item page
     shows each animation's still first frame (its <picture> source); a
     paused grid thumbnail plays while hovered or focused. One button per
     page says which, and the choice holds for the tab's session. */
  var reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var animationsPaused = !!(reducedMotion && reducedMotion.matches);
  try {
    var chosen = sessionStorage.getItem("gallerygen-animations");
    if (chosen) animationsPaused = chosen === "paused";
  } catch (e) { /* storage off: the media query decides */ }
  var stillSources = Array.prototype.slice.call(
    document.querySelectorAll(".photo-grid a[data-animated] source[media], .photo picture source[media]"));
  function showAnimations() {
    stillSources.forEach(function (source) { source.media = animationsPaused ? "all" : "not all"; });
    if (animationToggle) animationToggle.textContent = t(animationsPaused ? "play_animations" : "pause_animations");
  }
  var animationToggle = null;
  if (stillSources.length) {
    // Pages come with the button; a theme's own template may leave it out.
    animationToggle = document.querySelector(".animation-toggle");
    if (!animationToggle) {
      animationToggle = document.createElement("button");
      animationToggle.className = "animation-toggle";
      var firstGrid = document.querySelector(".photo-grid");
      firstGrid.parentNode.insertBefore(animationToggle, firstGrid);
    }
    animationToggle.type = "button";
    animationToggle.hidden = false;
    animationToggle.addEventListener("click", function () {
      animationsPaused = !animationsPaused;
      try { sessionStorage.setItem("gallerygen-animations", animationsPaused ? "paused" : "playing"); } catch (e) {}
      showAnimations();
    });
    showAnimations();
  }
  Array.prototype.forEach.call(document.querySelectorAll(".photo-grid a[data-animated]"), function (a) {
    var source = a.querySelector("source[media]");
    if (!source) return;
    var play = function () { source.media = "not all"; };
    var stop = function () { source.media = animationsPaused ? "all" : "not all"; };
    a.addEventListener("mouseenter", play);
    a.addEventListener("focus", play);
    a.addEventListener("mouseleave", stop);
    a.addEventListener("blur", stop);
  });
  var grids = document.querySelectorAll(".photo-grid a[data-srcset]");
  // The search page fills its grid later (search.js calls refresh()).
  var dynamic = !!document.querySelector(".search-results");
  if ((!grids.length && !dynamic) || !window.PointerEvent || !window.history.pushState) return;

  var items = [];          // {link, id, srcset, w, h, alt, facts, page, original, stack}
  var index = -1;          // the photo shown, or -1 when closed
  var member = 0;          // in a stack (items[index].stack), the item shown: 0 its cover
  var nextPageURL = nextPage(document);
  var loadingMore = null;
  var opener = null;       // the link focused before opening
  var preloads = {};       // srcset -> Image, for the neighbours being fetched
  var zoom = { scale: 1, x: 0, y: 0 };
  var GAP = 24;            // px between slides while swiping

  function nextPage(doc) {
    var link = doc.querySelector('link[rel="next"]');
    return link ? new URL(link.getAttribute("href"), doc.baseURI || location.href).href : null;
  }

  function collect(links, base) {
    Array.prototype.forEach.call(links, function (a) {
      var li = a.closest("li");
      var item = itemOf(a, base, li && li.id ? li.id : "");
      item.link = base ? null : a;
      // A stack's cover carries its first items in a <template> (nothing is fetched until shown).
      var members = li && li.querySelector("template.stack-members");
      if (members) {
        var badge = a.querySelector(".badge-stack");
        item.stack = [item].concat(Array.prototype.map.call(members.content.querySelectorAll("a"), function (m) {
          return itemOf(m, base || location.href, item.id);
        }));
        item.stackTotal = Math.max(item.stack.length, parseInt((badge ? badge.textContent : "").replace(/\D/g, ""), 10) || 0);
      }
      items.push(item);
    });
  }

  function itemOf(a, base, id) {
      var img = a.querySelector("img");
      var facts = [], faces = [];
      try { facts = JSON.parse(a.getAttribute("data-facts") || "[]"); } catch (e) { facts = []; }
      try { faces = JSON.parse(a.getAttribute("data-faces") || "[]"); } catch (e) { faces = []; }
      return {
        link: null,
        id: id,
        thumb: img ? new URL(img.getAttribute("src"), base || location.href).href : "",
        thumbSrcset: img ? absolutize(img.getAttribute("srcset") || "", base || location.href) : "",
        thumbW: img ? img.width || +img.getAttribute("width") : 1,
        thumbH: img ? img.height || +img.getAttribute("height") : 1,
        href: new URL(a.getAttribute("href"), base || location.href).href,
        webp: absolutize(a.getAttribute("data-srcset"), base),
        avif: absolutize(a.getAttribute("data-avif-srcset") || "", base),
        w: +a.getAttribute("data-width") || 1,
        h: +a.getAttribute("data-height") || 1,
        alt: img ? img.alt : "",
        facts: facts,
        faces: faces,
        original: a.getAttribute("data-original") ? new URL(a.getAttribute("data-original"), base || location.href).href : null,
        poster: a.getAttribute("data-poster") ? new URL(a.getAttribute("data-poster"), base || location.href).href : null,
        video: a.getAttribute("data-video") ? new URL(a.getAttribute("data-video"), base || location.href).href : null,
        live: a.getAttribute("data-live") === "true",
        caption: a.getAttribute("data-caption") || ""
      };
  }

  /* Whether this browser shows AVIF: what the grid's own <picture> chose for
     a loaded thumbnail. Unknown until one has loaded: WebP (or JPEG)
     meanwhile, which every browser shows. */
  var avifShown = null;
  function showsAVIF() {
    if (avifShown !== null) return avifShown;
    var imgs = document.querySelectorAll('.photo-grid source[type="image/avif"] ~ img');
    for (var k = 0; k < imgs.length && k < 24; k++) {
      if (imgs[k].currentSrc) {
        avifShown = /\.avif$/i.test(imgs[k].currentSrc.split(/[?#]/)[0]);
        return avifShown;
      }
    }
    return false;
  }

  /* An item's previews in the format this browser shows. */
  function srcsetOf(item) {
    return item.avif && showsAVIF() ? item.avif : item.webp;
  }

  function absolutize(srcset, base) {
    if (!base || !srcset) return srcset;
    return srcset.split(",").map(function (part) {
      var bits = part.trim().split(/\s+/);
      return new URL(bits[0], base).href + (bits[1] ? " " + bits[1] : "");
    }).join(", ");
  }

  collect(grids, null);

  function bind(link) {
    if (link.gallerygenBound) return;
    link.gallerygenBound = true;
    link.addEventListener("click", function (event) {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      for (var i = 0; i < items.length; i++) if (items[i].link === link) return open(i, true);
    });
  }
  items.forEach(function (item) { bind(item.link); });

  /* A grid filled after load (search results): collected again. */
  // Continuous pages (pages.js) appended a page: its photos join the viewer.
  document.addEventListener("gallerygen:appended", function (event) {
    collect(event.detail.links, null);
    event.detail.links.forEach(bind);
    nextPageURL = window.gallerygenPages ? window.gallerygenPages.nextURL() : null;
    if (index >= 0) show(index);
  });

  window.gallerygenViewer = {
    refresh: function () {
      if (index >= 0) return;
      items = [];
      collect(document.querySelectorAll(".photo-grid a[data-srcset]"), null);
      items.forEach(function (item) { bind(item.link); });
    }
  };

  /* ---- The viewer's DOM ---- */
  var root = element("div", "viewer");
  root.setAttribute("role", "dialog");
  root.setAttribute("aria-modal", "true");
  root.setAttribute("aria-label", t("viewer"));
  root.hidden = true;
  var track = element("div", "viewer-track");
  var slides = [0, 1, 2].map(function () {
    var slide = element("div", "viewer-slide");
    var img = element("img", "viewer-image");
    img.decoding = "async";
    img.draggable = false;
    slide.appendChild(img);
    // A video plays in its slide; a Live Photo's motion lies over the still.
    var video = element("video", "viewer-video");
    video.controls = true;
    video.playsInline = true;
    video.preload = "none";
    video.hidden = true;
    slide.appendChild(video);
    var motion = element("video", "viewer-motion");
    motion.playsInline = true;
    motion.preload = "none";
    motion.setAttribute("aria-hidden", "true");
    slide.appendChild(motion);
    track.appendChild(slide);
    return { slide: slide, img: img, video: video, motion: motion, item: -2 };
  });
  slides.forEach(function (s) {
    s.img.addEventListener("pointerenter", function () {
      var item = shown(s.item);
      if (s.still && item) { s.img.removeAttribute("src"); s.img.srcset = srcsetOf(item); s.still = false; }
    });
  });
  var bar = element("div", "viewer-bar");
  var counter = element("span", "viewer-count");
  counter.setAttribute("aria-hidden", "true");
  // What a screen reader hears on each photo: "3 of 40: Old town".
  var status = element("span", "viewer-status visually-hidden");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  var playButton = button("viewer-play", t("slideshow_start"), "▶");
  playButton.setAttribute("aria-keyshortcuts", "P");
  var progress = element("div", "viewer-progress");
  progress.setAttribute("aria-hidden", "true");
  var progressBar = element("div", "viewer-progress-bar");
  progress.appendChild(progressBar);
  var info = button("viewer-info", t("details"), "i");
  info.setAttribute("aria-expanded", "false");
  var download = element("a", "viewer-download");
  download.textContent = t("download");
  download.hidden = true;
  var pageLink = element("a", "viewer-page");
  pageLink.textContent = t("photo_page");
  var liveButton = button("viewer-live", t("play_live"), "LIVE");
  liveButton.setAttribute("aria-pressed", "false");
  liveButton.hidden = true;
  var live = null;         // the current slide's motion controls, when it is a Live Photo
  var close = button("viewer-close", t("close"), "×");
  // Outlines over the tagged faces, with their names: off until asked for (F).
  var facesButton = button("viewer-faces", t("show_faces"), "☺");
  facesButton.setAttribute("aria-pressed", "false");
  facesButton.setAttribute("aria-keyshortcuts", "F");
  facesButton.hidden = true;
  var facesLayer = element("div", "viewer-faces-layer");
  facesLayer.setAttribute("aria-hidden", "true");
  facesLayer.hidden = true;
  var showFaces = false;
  facesButton.addEventListener("click", function () { toggleFaces(); });
  [counter, status, playButton, liveButton, facesButton, info, download, pageLink, close].forEach(function (n) { bar.appendChild(n); });
  liveButton.addEventListener("pointerdown", function () { if (live) live.play(); });
  liveButton.addEventListener("pointerup", function () { if (live) live.stop(); });
  liveButton.addEventListener("pointerleave", function () { if (live) live.stop(); });
  liveButton.addEventListener("click", function (event) {
    if (!live || event.detail !== 0) return;
    if (slides[1].slide.classList.contains("live-playing")) live.stop(); else live.play();
  });
  var prev = button("viewer-prev", t("previous"), "‹");
  var next = button("viewer-next", t("next"), "›");
  var panel = element("dl", "viewer-facts");
  panel.hidden = true;
  var more = element("a", "viewer-more");
  more.hidden = true;
  var captionLine = element("p", "viewer-caption");   // the photographer's title and caption, as text
  captionLine.hidden = true;
  // A stack's items under the photo: a button each (Up and Down step too, Escape goes back to the cover).
  var strip = element("ol", "viewer-strip");
  strip.setAttribute("aria-label", t("stack"));
  strip.hidden = true;
  [track, facesLayer, progress, prev, next, bar, captionLine, strip, panel, more].forEach(function (n) { root.appendChild(n); });
  document.body.appendChild(root);

  function element(tag, cls) { var n = document.createElement(tag); n.className = cls; return n; }
  function button(cls, label, text) {
    var b = element("button", cls);
    b.type = "button";
    b.setAttribute("aria-label", label);
    b.textContent = text;
    return b;
  }

  /* ---- Showing photos ---- */
  function sizesFor(item) {
    // The photo is contained in the window: its CSS width is limited by the
    // window's width or by its height, whichever binds first.
    var width = Math.min(window.innerWidth, window.innerHeight * item.w / item.h);
    return Math.max(1, Math.round(width)) + "px";
  }

  /* The srcset candidate a <video poster> (one URL) should use at `sizes`. */
  function pickCandidate(srcset, cssWidth) {
    var wanted = cssWidth * (window.devicePixelRatio || 1), best = null;
    srcset.split(",").forEach(function (part) {
      var bits = part.trim().split(/\s+/), w = parseInt(bits[1], 10) || 0;
      if (!best || (best.w < wanted && w > best.w) || (w >= wanted && w < best.w)) best = { url: bits[0], w: w };
    });
    return best ? best.url : "";
  }

  /* Stops a slide's video and motion and lets go of their bytes: a slide
     swiped away pauses, and a neighbour never fetches video. */
  function stopMedia(s) {
    [s.video, s.motion].forEach(function (v) {
      if (!v.getAttribute("src")) return;
      v.pause();
      v.removeAttribute("src");
      v.load();
    });
    s.slide.classList.remove("live-playing");
  }

  function fill(slot, i) {
    var s = slides[slot];
    var item = shown(i), key = i === index ? member : 0;
    if (s.item === i && s.member === key && s.sizes === (item && sizesFor(item))) return;
    if (s.item !== i || s.member !== key) stopMedia(s);
    s.item = i;
    s.member = key;
    var isVideo = !!(item && item.video && !item.live);
    s.img.hidden = isVideo;
    s.video.hidden = !isVideo;
    if (isVideo) {
      s.video.poster = pickCandidate(srcsetOf(item), parseInt(sizesFor(item), 10));
      s.video.width = item.w;
      s.video.height = item.h;
      s.video.setAttribute("aria-label", item.alt);
    }
    if (!item) { s.img.removeAttribute("srcset"); s.img.removeAttribute("src"); s.img.alt = ""; s.slide.hidden = true; return; }
    s.slide.hidden = false;
    s.sizes = sizesFor(item);
    s.img.sizes = s.sizes;
    // With reduced motion an animation shows its poster until hovered.
    s.still = !!(item.poster && animationsPaused);
    if (s.still) { s.img.removeAttribute("srcset"); s.img.src = item.poster; }
    else s.img.srcset = srcsetOf(item);
    s.img.width = item.w;
    s.img.height = item.h;
    s.img.alt = item.alt;
  }

  function layout(offset, animate) {
    if (reducedMotion && reducedMotion.matches) animate = false;
    var width = window.innerWidth + GAP;
    track.style.transition = animate ? "transform .28s cubic-bezier(.2,.7,.3,1)" : "none";
    track.style.transform = "translate3d(" + (-width + offset) + "px,0,0)";
    // Outlines stand over the photo at rest, not over one sliding away.
    if (offset !== 0) facesLayer.hidden = true;
  }

  function show(i) {
    index = i;
    resetZoom();
    fill(0, i - 1);
    fill(1, i);
    fill(2, i + 1);
    layout(0, false);
    var item = shown(i);
    // Only the photo shown may fetch video: its metadata now, its bytes when played.
    var s = slides[1];
    if (item.video && !item.live && s.video.getAttribute("src") !== item.video) {
      s.video.preload = "metadata";
      s.video.src = item.video;
    }
    live = null;
    liveButton.hidden = !(item.video && item.live);
    if (item.video && item.live) {
      s.motion.dataset.src = item.video;
      live = liveMotion(s.slide, s.motion, null, liveButton);
    }
    var total = items.length + (nextPageURL ? "+" : "");
    var stack = items[i].stack, inStack = stack ? t("stack_position").replace("{n}", String(member + 1))
      .replace("{total}", String(items[i].stackTotal)) : "";
    counter.textContent = (i + 1) + " / " + total + (stack ? " · " + (member + 1) + "/" + items[i].stackTotal : "");
    status.textContent = t("position").replace("{n}", String(i + 1)).replace("{total}", total)
      .replace("{title}", (inStack ? inStack + ", " : "") + (item.alt || ""));
    renderStrip();
    pageLink.href = item.href;
    download.hidden = !item.original;
    if (item.original) { download.href = item.original; download.setAttribute("download", ""); }
    prev.disabled = i === 0;
    next.disabled = i === items.length - 1 && !nextPageURL;
    renderFacts(item);
    facesButton.hidden = !item.faces.length;
    drawFaces();
    captionLine.textContent = item.caption;
    captionLine.hidden = !item.caption || !panel.hidden;
    more.hidden = true;
    preloadAround(i);
    if (i >= items.length - 3) loadMore();
    slideshow.shown();
  }

  /* The item a tile shows: a stack's chosen item while it is the one open, else the tile's own. */
  function shown(i) {
    var item = items[i];
    return item && item.stack && i === index ? item.stack[member] : item;
  }

  function stepInStack(step) {
    var stack = items[index] && items[index].stack;
    if (!stack || member + step < 0 || member + step >= stack.length) return;
    member += step;
    resetZoom();
    show(index);
  }

  function renderStrip() {
    var stack = items[index].stack, focused = strip.contains(document.activeElement);
    strip.textContent = "";
    strip.hidden = !stack;
    if (!stack) return;
    stack.forEach(function (m, n) {
      var li = document.createElement("li");
      var b = button("viewer-strip-item", t("stack_position").replace("{n}", String(n + 1)).replace("{total}", String(items[index].stackTotal))
        + (m.alt ? ": " + m.alt : ""), "");
      if (n === member) b.setAttribute("aria-current", "true");
      var img = element("img", "");
      img.alt = "";
      img.decoding = "async";
      img.width = m.thumbW;
      img.height = m.thumbH;
      img.sizes = "64px";
      img.srcset = m.thumbSrcset;
      img.src = m.thumb;
      b.appendChild(img);
      b.addEventListener("click", function () { stepInStack(n - member); });
      li.appendChild(b);
      strip.appendChild(li);
    });
    // A long stack: the rest on the cover's page, whose strip reaches every item.
    if (items[index].stackTotal > stack.length) {
      var li = document.createElement("li"), rest = element("a", "viewer-strip-more");
      rest.href = stack[0].href;
      rest.textContent = "+" + (items[index].stackTotal - stack.length);
      li.appendChild(rest);
      strip.appendChild(li);
    }
    if (focused) strip.querySelector("[aria-current]").focus();
  }

  function toggleFaces() {
    showFaces = !showFaces;
    facesButton.setAttribute("aria-pressed", String(showFaces));
    facesButton.setAttribute("aria-label", t(showFaces ? "hide_faces" : "show_faces"));
    drawFaces();
  }

  /* Each face's box over the picture as it is shown: the <img> box holds the
     picture contained (letterboxed), so the picture's own rectangle is
     worked out from its size; hidden while zoomed or swiping. */
  function drawFaces() {
    facesLayer.textContent = "";
    var item = shown(index);
    var on = showFaces && item && item.faces.length && zoom.scale === 1 && !slides[1].img.hidden;
    facesLayer.hidden = !on;
    if (!on) return;
    var box = slides[1].img.getBoundingClientRect(), origin = root.getBoundingClientRect();
    var scale = Math.min(box.width / item.w, box.height / item.h);
    var w = item.w * scale, h = item.h * scale;
    var left = box.left - origin.left + (box.width - w) / 2, top = box.top - origin.top + (box.height - h) / 2;
    item.faces.forEach(function (f) {
      var outline = element("div", "viewer-face");
      outline.style.left = (left + f[1] * w) + "px";
      outline.style.top = (top + f[2] * h) + "px";
      outline.style.width = (f[3] * w) + "px";
      outline.style.height = (f[4] * h) + "px";
      var name = element("span", "viewer-face-name");
      name.textContent = f[0];
      outline.appendChild(name);
      facesLayer.appendChild(outline);
    });
  }

  function renderFacts(item) {
    panel.textContent = "";
    item.facts.forEach(function (f) {
      var wrap = element("div", "");
      var dt = document.createElement("dt");
      var dd = document.createElement("dd");
      dt.textContent = f[0];
      dd.textContent = f[1];
      wrap.appendChild(dt);
      wrap.appendChild(dd);
      panel.appendChild(wrap);
    });
  }

  /* Fetch the next, previous and after-next previews as soon as a photo shows;
     drop the requests for photos left behind so they stop using the connection. */
  function preloadAround(i) {
    var wanted = {};
    var stack = items[i].stack;
    [items[i + 1], items[i - 1], items[i + 2], stack && stack[member + 1]].forEach(function (item) {
      if (!item) return;
      var key = srcsetOf(item);
      wanted[key] = true;
      if (preloads[key]) return;
      // A private album's previews are opened ahead by sealed.js instead.
      if (window.gallerygenPreload && window.gallerygenPreload(srcsetOf(item))) { preloads[key] = { complete: true }; return; }
      var img = new Image();
      img.decoding = "async";
      img.sizes = sizesFor(item);
      img.srcset = srcsetOf(item);
      preloads[key] = img;
    });
    Object.keys(preloads).forEach(function (key) {
      if (wanted[key]) return;
      var img = preloads[key];
      if (!img.complete) { img.srcset = ""; img.removeAttribute("src"); }
      delete preloads[key];
    });
  }

  /* At the end of the page, fetch the next page's photos (HTTP only; from
     file:// the viewer says where they are instead). */
  function loadMore() {
    if (!nextPageURL || loadingMore || location.protocol === "file:") return loadingMore;
    if (window.gallerygenPages) {
      // The page itself grows (pages.js); its event adds the photos here.
      loadingMore = window.gallerygenPages.loadNext().then(function () { loadingMore = null; });
      return loadingMore;
    }
    var url = nextPageURL;
    loadingMore = fetch(url).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      // A private album's page is decrypted first (sealed.js).
      return window.gallerygenUnseal ? window.gallerygenUnseal(doc, url) : doc;
    }).then(function (doc) {
      var base = document.createElement("base");
      base.href = url;
      doc.head.appendChild(base);
      collect(doc.querySelectorAll(".photo-grid a[data-srcset]"), url);
      nextPageURL = nextPage(doc);
      loadingMore = null;
      if (index >= 0) show(index);
    }).catch(function () { loadingMore = null; });
    return loadingMore;
  }

  function go(step) {
    var target = index + step;
    // Any step to another tile leaves the stack at its cover (Escape or a new tile).
    if (target >= 0 && target < items.length) member = 0;
    if (target < 0) return layout(0, true);
    if (target >= items.length) {
      if (nextPageURL && location.protocol === "file:") {
        more.hidden = false;
        more.href = nextPageURL;
        more.textContent = t("more_on_next_page");
      } else if (loadingMore) {
        loadingMore.then(function () { if (index + step < items.length) go(step); });
      }
      return layout(0, true);
    }
    var width = window.innerWidth + GAP;
    layout(-step * width, true);
    var done = false;
    var finish = function () {
      if (done) return;
      done = true;
      track.removeEventListener("transitionend", finish);
      show(target);
      history.replaceState(history.state, "", "#view=" + encodeURIComponent(items[target].id || String(target)));
    };
    track.addEventListener("transitionend", finish);
    setTimeout(finish, reducedMotion && reducedMotion.matches ? 0 : 320);
  }

  /* ---- Slideshow ----
     Play/pause by button or the P key. Each photo shows for the site's
     interval (data-slideshow on <body>, seconds), drawn as a progress bar;
     a video plays to its end instead. The next photo is loaded before it is
     due (a late one is waited for). It pauses while the tab is hidden and
     while the pointer rests on the controls, and goes on from where it was.
     While it plays, photos are not announced one by one (a live region that
     talks every few seconds drowns everything else). */
  var slideshow = (function () {
    var interval = Math.max(1, parseFloat(document.body.getAttribute("data-slideshow")) || 4) * 1000;
    var playing = false, remaining = interval, startedAt = 0, timer = null, held = {};
    function isHeld() { return Object.keys(held).some(function (k) { return held[k]; }); }
    function currentVideo() {
      var item = shown(index);
      return item && item.video && !item.live ? slides[1].video : null;
    }
    function drawProgress(fraction, runFor) {
      progressBar.style.transition = "none";
      progressBar.style.transform = "scaleX(" + fraction + ")";
      if (runFor > 0) {
        void progressBar.offsetWidth;   // start the transition from `fraction`
        progressBar.style.transition = "transform " + runFor + "ms linear";
        progressBar.style.transform = "scaleX(1)";
      }
    }
    function stopTimer() {
      if (timer) { clearTimeout(timer); timer = null; remaining = Math.max(0, remaining - (Date.now() - startedAt)); }
    }
    function run() {
      stopTimer();
      if (!playing || index < 0 || isHeld() || document.hidden) {
        drawProgress(1 - remaining / interval, 0);
        var video = currentVideo();
        if (video && !video.paused && (isHeld() || document.hidden)) video.pause();
        return;
      }
      var video = currentVideo();
      if (video) {
        // A video is its own clock: it plays to its end.
        progress.hidden = true;
        if (video.paused && !video.ended) {
          var started = video.play();
          if (started && started.catch) started.catch(function () { video.muted = true; video.play().catch(function () {}); });
        }
        return;
      }
      progress.hidden = false;
      startedAt = Date.now();
      drawProgress(1 - remaining / interval, remaining);
      timer = setTimeout(function () { timer = null; remaining = 0; advance(); }, remaining);
    }
    function nextReady() {
      var item = items[index + 1];
      if (!item) return true;
      var preload = preloads[srcsetOf(item)];
      return !preload || preload.complete;
    }
    function advance() {
      if (!playing || index < 0) return;
      if (index + 1 >= items.length && !nextPageURL) { remaining = interval; go(-index); return; }   // round again
      if (index + 1 >= items.length || !nextReady()) {
        // Not there yet (the next page, a slow photo): look again shortly.
        if (index + 1 >= items.length) loadMore();
        timer = setTimeout(function () { timer = null; advance(); }, 250);
        startedAt = Date.now();
        return;
      }
      remaining = interval;
      go(1);
    }
    function set(on) {
      playing = on;
      remaining = interval;
      playButton.textContent = on ? "❚❚" : "▶";
      playButton.setAttribute("aria-label", t(on ? "slideshow_pause" : "slideshow_start"));
      root.classList.toggle("viewer-playing", on);
      status.setAttribute("aria-live", on ? "off" : "polite");
      if (!on) { stopTimer(); progress.hidden = true; remaining = interval; return; }
      run();
    }
    playButton.addEventListener("click", function () { set(!playing); });
    // Resting on the controls pauses (not merely focusing the play button).
    [bar, prev, next].forEach(function (control, n) {
      control.addEventListener("pointerenter", function (event) { if (event.pointerType === "mouse") { held[n] = true; run(); } });
      control.addEventListener("pointerleave", function () { held[n] = false; run(); });
    });
    document.addEventListener("visibilitychange", run);
    slides.forEach(function (s) {
      s.video.addEventListener("ended", function () { if (playing && s === slides[1]) { remaining = 0; advance(); } });
    });
    progress.hidden = true;
    return {
      toggle: function () { set(!playing); },
      // A new photo is shown (by the slideshow or by hand): its full time starts.
      shown: function () { if (playing) { stopTimer(); remaining = interval; run(); } },
      stop: function () { if (playing) set(false); held = {}; }
    };
  })();

  /* ---- Opening and closing ---- */
  function open(i, push) {
    opener = document.activeElement;
    member = 0;
    root.hidden = false;
    document.documentElement.classList.add("viewer-open");
    show(i);
    var hash = "#view=" + encodeURIComponent(items[i].id || String(i));
    if (push) history.pushState({ viewer: true }, "", hash);
    else history.replaceState({ viewer: true }, "", hash);
    close.focus();
  }

  function hide() {
    if (index < 0) return;
    var item = items[index];
    index = -1;
    member = 0;
    root.hidden = true;
    panel.hidden = true;
    info.setAttribute("aria-expanded", "false");
    document.documentElement.classList.remove("viewer-open");
    slideshow.stop();
    slides.forEach(stopMedia);
    Object.keys(preloads).forEach(function (key) { delete preloads[key]; });
    var focusTarget = item && item.link ? item.link : opener;
    if (focusTarget && focusTarget.focus) {
      focusTarget.focus({ preventScroll: !item || !item.link });
      if (item && item.link) item.link.scrollIntoView({ block: "nearest" });
    }
  }

  function requestClose() {
    if (history.state && history.state.viewer) history.back();
    else { history.replaceState(null, "", location.pathname + location.search); hide(); }
  }

  window.addEventListener("popstate", function () {
    var wanted = fromHash();
    if (wanted < 0) hide();
    else if (wanted !== index) open(wanted, false);
  });

  function fromHash() {
    var m = /^#view=(.+)$/.exec(location.hash);
    if (!m) return -1;
    var id = decodeURIComponent(m[1]);
    for (var i = 0; i < items.length; i++) if (items[i].id === id) return i;
    var n = parseInt(id, 10);
    return isNaN(n) || n < 0 || n >= items.length ? -1 : n;
  }

  close.addEventListener("click", requestClose);
  prev.addEventListener("click", function () { go(-1); });
  next.addEventListener("click", function () { go(1); });
  info.addEventListener("click", function () {
    panel.hidden = !panel.hidden;
    captionLine.hidden = !panel.hidden || !(shown(index) && shown(index).caption);
    info.setAttribute("aria-expanded", String(!panel.hidden));
  });

  document.addEventListener("keydown", function (event) {
    if (index < 0) return;
    if (event.key === "Escape") { event.preventDefault(); if (member > 0) stepInStack(-member); else requestClose(); }
    else if (event.key === "ArrowDown" && items[index].stack) { event.preventDefault(); stepInStack(1); }
    else if (event.key === "ArrowUp" && items[index].stack) { event.preventDefault(); stepInStack(-1); }
    else if (event.key === "ArrowRight") { event.preventDefault(); go(1); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); go(-1); }
    else if ((event.key === "p" || event.key === "P") && !event.ctrlKey && !event.metaKey && !event.altKey) { event.preventDefault(); slideshow.toggle(); }
    else if ((event.key === "f" || event.key === "F") && !facesButton.hidden && !event.ctrlKey && !event.metaKey && !event.altKey) { event.preventDefault(); toggleFaces(); }
    else if (event.key === "Tab") trapFocus(event);
  });

  function trapFocus(event) {
    var focusable = Array.prototype.filter.call(root.querySelectorAll("button, a[href]"), function (n) {
      return !n.hidden && !n.disabled && n.offsetParent !== null;
    });
    if (!focusable.length) return;
    var first = focusable[0], last = focusable[focusable.length - 1];
    if (event.shiftKey && (document.activeElement === first || !root.contains(document.activeElement))) { event.preventDefault(); last.focus(); }
    else if (!event.shiftKey && (document.activeElement === last || !root.contains(document.activeElement))) { event.preventDefault(); first.focus(); }
  }

  /* ---- Swipe, drag, pinch and double-tap zoom (pointer events) ---- */
  var pointers = {};
  var gesture = null;
  var lastTap = 0;

  function current() { return slides[1].img; }

  function applyZoom(animate) {
    var img = current();
    img.style.transition = animate ? "transform .2s ease" : "none";
    img.style.transform = zoom.scale === 1 ? "" : "translate(" + zoom.x + "px," + zoom.y + "px) scale(" + zoom.scale + ")";
    root.classList.toggle("viewer-zoomed", zoom.scale > 1);
    drawFaces();
  }

  function resetZoom() {
    zoom = { scale: 1, x: 0, y: 0 };
    slides.forEach(function (s) { s.img.style.transform = ""; });
    root.classList.remove("viewer-zoomed");
  }

  function zoomAt(clientX, clientY, scale) {
    var item = shown(index);
    // Ask the browser for the largest rendition while zoomed in.
    if (scale > 1 && item) current().sizes = Math.round(item.w) + "px";
    var rect = current().getBoundingClientRect();
    var cx = clientX - (rect.left + rect.width / 2) + zoom.x;
    var cy = clientY - (rect.top + rect.height / 2) + zoom.y;
    var ratio = scale / zoom.scale;
    zoom.x = (zoom.x - cx) * ratio + cx;
    zoom.y = (zoom.y - cy) * ratio + cy;
    zoom.scale = scale;
    if (scale === 1) zoom = { scale: 1, x: 0, y: 0 };
    applyZoom(true);
  }

  track.addEventListener("pointerdown", function (event) {
    if (event.button !== 0) return;
    // A video's own controls need their pointer; swiping over it still works.
    if (event.target.tagName !== "VIDEO") track.setPointerCapture(event.pointerId);
    pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
    var ids = Object.keys(pointers);
    if (ids.length === 2) {
      var a = pointers[ids[0]], b = pointers[ids[1]];
      gesture = { kind: "pinch", distance: Math.hypot(a.x - b.x, a.y - b.y), scale: zoom.scale };
    } else if (ids.length === 1) {
      gesture = { kind: zoom.scale > 1 ? "pan" : "swipe", x: event.clientX, y: event.clientY, zx: zoom.x, zy: zoom.y, t: Date.now(), moved: false };
    }
  });

  track.addEventListener("pointermove", function (event) {
    if (!pointers[event.pointerId] || !gesture) return;
    pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
    if (gesture.kind === "pinch") {
      var ids = Object.keys(pointers);
      if (ids.length < 2) return;
      var a = pointers[ids[0]], b = pointers[ids[1]];
      var scale = Math.max(1, Math.min(6, gesture.scale * Math.hypot(a.x - b.x, a.y - b.y) / gesture.distance));
      zoomAt((a.x + b.x) / 2, (a.y + b.y) / 2, scale);
      return;
    }
    var dx = event.clientX - gesture.x, dy = event.clientY - gesture.y;
    if (Math.abs(dx) > 4 || Math.abs(dy) > 4) gesture.moved = true;
    if (gesture.kind === "pan") {
      zoom.x = gesture.zx + dx;
      zoom.y = gesture.zy + dy;
      applyZoom(false);
    } else {
      layout(dx, false);
    }
  });

  function endPointer(event) {
    if (!pointers[event.pointerId]) return;
    delete pointers[event.pointerId];
    if (!gesture) return;
    if (gesture.kind === "pinch") {
      if (Object.keys(pointers).length === 0) gesture = null;
      return;
    }
    var dx = event.clientX - gesture.x, dy = event.clientY - gesture.y;
    var elapsed = Math.max(1, Date.now() - gesture.t);
    if (gesture.kind === "swipe" && gesture.moved && items[index].stack && Math.abs(dy) > 40 && Math.abs(dy) > 2 * Math.abs(dx)) {
      // Up and down step through a stack (up: on to its next item).
      layout(0, true);
      stepInStack(dy < 0 ? 1 : -1);
    } else if (gesture.kind === "swipe" && gesture.moved) {
      var fast = Math.abs(dx) / elapsed > 0.5 && Math.abs(dx) > 30;
      if (Math.abs(dx) > window.innerWidth * 0.2 || fast) go(dx < 0 ? 1 : -1);
      else layout(0, true);
    } else if (!gesture.moved && event.type === "pointerup") {
      var now = Date.now();
      if (now - lastTap < 320) {
        zoomAt(event.clientX, event.clientY, zoom.scale > 1 ? 1 : 2.5);
        lastTap = 0;
      } else {
        lastTap = now;
      }
    }
    gesture = null;
  }
  track.addEventListener("pointerup", endPointer);
  track.addEventListener("pointercancel", endPointer);

  window.addEventListener("resize", function () {
    if (index >= 0) { slides.forEach(function (s) { s.item = -2; }); show(index); }
  });

  /* A link or reload with #view=… opens the viewer on that photo. */
  var initial = fromHash();
  if (initial >= 0) {
    history.replaceState(null, "", location.pathname + location.search);
    history.pushState({ viewer: true }, "", "#view=" + encodeURIComponent(items[initial].id || String(initial)));
    opener = items[initial].link;
    root.hidden = false;
    document.documentElement.classList.add("viewer-open");
    show(initial);
    close.focus();
  }
})();
