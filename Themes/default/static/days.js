/* gallerygen "On this day": the home page shows photos taken on today's
   month and day in earlier years, picked here in the browser from this
   month's moments/days-MM.js (a script that hands its data to
   gallerygenDays, so it loads from file:// too), so the site stays current
   without a rebuild.
   Nothing is shown when there are none. Hand-written, no dependencies. */
(function () {
  "use strict";
  var section = document.querySelector(".on-this-day");
  if (!section || document.querySelector('link[rel="prev"]')) return;   // the first home page only
  var t = window.gallerygenText || function (key) { return key; };

  function key(date) {
    return ("0" + (date.getMonth() + 1)).slice(-2) + "-" + ("0" + date.getDate()).slice(-2);
  }
  function isLeap(year) { return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0; }

  window.gallerygenDays = function (days) {
    var today = new Date(), year = today.getFullYear();
    var entries = (days[key(today)] || []).slice();
    // 29 February's photos are remembered on the 28th in other years.
    if (key(today) === "02-28" && !isLeap(year)) entries = entries.concat(days["02-29"] || []);
    var byYear = {};
    entries.forEach(function (e) { if (e[0] < year) (byYear[e[0]] = byYear[e[0]] || []).push(e); });
    var years = Object.keys(byYear).map(Number).sort(function (a, b) { return b - a; });
    if (!years.length) return;
    var list = section.querySelector(".on-this-day-years");
    years.forEach(function (y) {
      var group = document.createElement("li");
      var heading = document.createElement("h3");
      var place = byYear[y].map(function (e) { return e[7]; }).filter(Boolean)[0];
      heading.textContent = t("years_ago", year - y) + (place ? " · " + place : "");
      group.appendChild(heading);
      var row = document.createElement("ul");
      row.className = "on-this-day-photos";
      byYear[y].forEach(function (e) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = e[1];
        var img = document.createElement("img");
        img.src = e[2];
        img.srcset = e[3];
        img.sizes = Math.round(120 * e[4] / e[5]) + "px";
        img.width = e[4];
        img.height = e[5];
        img.alt = e[6];
        img.loading = "lazy";
        img.decoding = "async";
        a.appendChild(img);
        li.appendChild(a);
        row.appendChild(li);
      });
      group.appendChild(row);
      list.appendChild(group);
    });
    section.hidden = false;
  };
  var script = document.createElement("script");
  script.src = section.getAttribute("data-days").replace(/MM(\.js)$/, ("0" + (new Date().getMonth() + 1)).slice(-2) + "$1");
  script.onload = function () { script.remove(); };
  document.head.appendChild(script);
})();
