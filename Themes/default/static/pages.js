/* gallerygen continuous pages: on album, tag and moments pages served over
   HTTP, reaching the pager fetches the next page and appends its photos, so
   a long timeline scrolls without end. The address bar follows the page on
   screen (a link shared or a reload lands there), the month index marks the
   month on screen, and Back returns to the same photo. Without JavaScript,
   or from file:// (where pages cannot be fetched), the pager works as links.
   Hand-written, no dependencies. */
(function () {
  "use strict";
  var pager = document.querySelector(".pager");
  var main = document.querySelector(".moments-main") || document.querySelector("main");
  if (!main || !window.fetch || !window.DOMParser || !window.history.replaceState) return;

  var nextURL = nextOf(document, location.href);
  var loading = null;
  var chunks = [{ url: location.href.split("#")[0], first: null, items: gridItems(main) }];
  chunks[0].first = chunks[0].items[0] || null;
  var http = location.protocol === "http:" || location.protocol === "https:";

  function nextOf(doc, base) {
    var link = doc.querySelector('link[rel="next"]');
    return link ? new URL(link.getAttribute("href"), base).href : null;
  }

  function gridItems(root) {
    return Array.prototype.slice.call(root.querySelectorAll(".photo-grid > li"));
  }

  /* Relative URLs of a page from another folder are made absolute (pages of
     one album or of the timeline share a folder, so this rarely runs). */
  function rebase(root, base) {
    if (new URL(".", base).href === new URL(".", location.href).href) return;
    ["href", "src", "data-poster", "data-original", "data-video"].forEach(function (name) {
      Array.prototype.forEach.call(root.querySelectorAll("[" + name + "]"), function (el) {
        var value = el.getAttribute(name);
        if (value && value.charAt(0) !== "#") el.setAttribute(name, new URL(value, base).href);
      });
    });
    ["srcset", "data-srcset", "data-avif-srcset"].forEach(function (name) {
      Array.prototype.forEach.call(root.querySelectorAll("[" + name + "]"), function (el) {
        if (!el.getAttribute(name)) return;
        el.setAttribute(name, el.getAttribute(name).split(",").map(function (part) {
          var bits = part.trim().split(/\s+/);
          return new URL(bits[0], base).href + (bits[1] ? " " + bits[1] : "");
        }).join(", "));
      });
    });
  }

  function lastGridOf(element) {
    var grids = element ? element.querySelectorAll(".photo-grid") : [];
    return grids.length ? grids[grids.length - 1] : null;
  }

  /* Appends the next page: its sections (moments) or its grid's items
     (albums). A day cut by the page break, or a run of quiet days, carries
     on in the grid it began in. Resolves with the links added. */
  function loadNext() {
    if (!nextURL || !http) return Promise.resolve([]);
    if (loading) return loading;
    var url = nextURL;
    loading = fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    }).then(function (text) {
      var doc = new DOMParser().parseFromString(text, "text/html");
      // A private album's page is decrypted first (sealed.js).
      return window.gallerygenUnseal ? window.gallerygenUnseal(doc, url) : doc;
    }).then(function (doc) {
      var theirs = doc.querySelector(".moments-main") || doc.querySelector("main");
      if (!theirs) throw new Error("no content");
      rebase(theirs, url);
      var added = [];
      var anchor = document.querySelector(".moments-main > .pager, main > .pager");
      var sections = theirs.querySelectorAll(":scope > section.moment");
      if (sections.length) {
        Array.prototype.forEach.call(sections, function (section) {
          var here = main.querySelectorAll(":scope > section.moment");
          var last = here[here.length - 1];
          var continued = section.querySelector(".moment-continued");
          var bothRuns = last && section.classList.contains("moment-run") && last.classList.contains("moment-run");
          if (last && (continued || bothRuns)) {
            var note = last.querySelector(".moment-continues");
            if (note) note.remove();
            var grid = lastGridOf(last);
            gridItems(section).forEach(function (li) { grid.appendChild(li); added.push(li); });
            var carried = section.querySelector(".moment-continues");
            if (carried) last.appendChild(carried);
          } else {
            gridItems(section).forEach(function (li) { added.push(li); });
            main.insertBefore(section, anchor);
          }
        });
      } else {
        var grid = main.querySelector(":scope > .photo-grid");
        var theirGrid = theirs.querySelector(":scope > .photo-grid");
        if (grid && theirGrid) gridItems(theirGrid).forEach(function (li) { grid.appendChild(li); added.push(li); });
      }
      var theirPager = theirs.querySelector(".pager");
      if (anchor && theirPager) anchor.replaceWith(theirPager);
      else if (anchor) anchor.remove();
      pager = theirPager;
      nextURL = nextOf(doc, url);
      var rel = document.querySelector('link[rel="next"]');
      if (rel && nextURL) rel.setAttribute("href", nextURL);
      else if (rel) rel.remove();
      chunks.push({ url: url, first: added[0] || null, items: added });
      // Coming back to this entry must not restore a scroll offset into
      // content a fresh load will not have: the state below says where to go.
      if ("scrollRestoration" in history) history.scrollRestoration = "manual";
      var links = added.map(function (li) { return li.querySelector("a[data-srcset]"); }).filter(Boolean);
      document.dispatchEvent(new CustomEvent("gallerygen:appended", { detail: { links: links } }));
      loading = null;
      return links;
    }).catch(function () {
      // The pager stays: the next page is one click away.
      loading = null;
      nextURL = null;
      return [];
    });
    return loading;
  }

  /* The next page is fetched while the reader scrolls towards the pager
     (well before it shows), never on its own at load: a short page's
     footer would jump with nobody asking. There, "More ›" appends in place. */
  function nearPager() {
    return pager && topOf(pager) < window.innerHeight + 1200;
  }
  document.addEventListener("click", function (event) {
    var more = event.target.closest && event.target.closest('.pager a[rel="next"]');
    if (!more || !http || !nextURL || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    var url = more.href;
    loadNext().then(function (links) {
      if (!links.length) { location.href = url; return; }
      links[0].focus({ preventScroll: true });
    });
  });

  function viewerOpen() { return document.documentElement.classList.contains("viewer-open"); }

  /* ---- Where the reader is: the address, the month index, Back ---- */
  var monthLinks = Array.prototype.slice.call(document.querySelectorAll(".moments-index a[data-month]"));
  // A year the reader unfolds stays unfolded: the month on screen is still
  // marked, but its year no longer takes the fold back.
  var browsingIndex = false;
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest(".index-year > summary")) browsingIndex = true;
  });
  var hereLabel = document.querySelector(".moments-here");
  var shownMonth = null;

  function topOf(element) { return element.getBoundingClientRect().top; }

  /* Which page is on screen (the last chunk whose first item is above the
     line) and the first of its items still on screen, to come back to. */
  function place(line) {
    var chunk = chunks[0], i;
    for (i = 1; i < chunks.length; i++) if (chunks[i].first && topOf(chunks[i].first) < line) chunk = chunks[i];
    for (i = 0; i < chunk.items.length; i++) {
      var box = chunk.items[i].getBoundingClientRect();
      if (box.bottom > 0) return { chunk: chunk, index: i, offset: Math.round(box.top) };
    }
    return { chunk: chunk, index: null, offset: 0 };
  }

  /* The address follows the page on screen; the history entry remembers the
     photo at the top. Written once scrolling pauses: browsers throttle
     history calls made on every frame. */
  function remember() {
    if (viewerOpen()) return;
    var here = place(lineOf());
    var state = history.state && typeof history.state === "object" ? Object.assign({}, history.state) : {};
    state.gallerygenPlace = here.index === null ? null : { index: here.index, offset: here.offset };
    var current = location.href.split("#")[0];
    try {
      history.replaceState(state, "", here.chunk.url === current ? location.href : here.chunk.url);
    } catch (e) { /* throttled: the next pause writes it */ }
  }

  function lineOf() { return Math.min(window.innerHeight / 3, 240); }

  /* The month on screen: the last [data-month] mark above the line (marks
     are in page order, so a binary search finds it among thousands). */
  function markMonth() {
    if (!monthLinks.length || viewerOpen()) return;
    var marks = main.querySelectorAll("[data-month]");
    if (!marks.length) return;
    var line = lineOf(), low = 0, high = marks.length - 1, found = 0;
    while (low <= high) {
      var middle = (low + high) >> 1;
      if (topOf(marks[middle]) < line) { found = middle; low = middle + 1; } else { high = middle - 1; }
    }
    var month = marks[found].getAttribute("data-month");
    if (month === shownMonth) return;
    shownMonth = month;
    monthLinks.forEach(function (a) {
      if (a.getAttribute("data-month") !== month) { a.removeAttribute("aria-current"); return; }
      a.setAttribute("aria-current", "true");
      var year = a.closest("details.index-year");
      if (year && !year.open && !browsingIndex) year.open = true;
      if (hereLabel) hereLabel.textContent = (a.getAttribute("aria-label") || "").split(":")[0];
    });
  }

  var framed = false, pause = null;
  window.addEventListener("scroll", function () {
    if (!framed) {
      framed = true;
      window.requestAnimationFrame(function () {
        framed = false;
        markMonth();
        if (http && nextURL && !loading && !viewerOpen() && nearPager()) loadNext();
      });
    }
    clearTimeout(pause);
    pause = setTimeout(remember, 200);
  }, { passive: true });

  /* Back to a page that had grown: a fresh load has only this page, so go to
     the photo that was at the top (a restored page from the back/forward
     cache needs nothing). */
  var saved = history.state && history.state.gallerygenPlace;
  if (saved && !location.hash) {
    var target = chunks[0].items[saved.index];
    if (target) window.scrollTo(0, Math.max(0, window.scrollY + topOf(target) - saved.offset));
  }

  window.gallerygenPages = {
    loadNext: loadNext,
    nextURL: function () { return http ? nextURL : null; }
  };
})();
