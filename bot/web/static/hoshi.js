/* hoshi — progressive enhancement for the clubs' pages (issue 14). Every page works without
   this file; with it, tables sort, the ranking filters as you type and the head-to-head list
   goes where you choose. Loaded with <script src="…/hoshi.js" defer> (the CSP allows only
   'self': no inline handlers here or in the pages).

   The DOM it relies on (web-contract.md):
   * table.sortable > thead th[data-sort="number|text|date"]: the header's content is wrapped
     in <button type="button">; a click sorts the table's tbody rows by that column, ascending
     then descending (stable), and sets aria-sort on that th (removed from the others; a th
     that comes with aria-sort from the server is taken as the current order).
     number: the cell's data-value, else its text ("1 887", "37,5", "−4", "+16"); text: the
       text, compared in the page's <html lang>; date: data-value, an ISO date (text if none).
     Cells with no value sort last either way.
   * #search (an <input> in the ranking's GET form): typing hides the rows of #ranking's
     tbody whose a.player text does not contain the typed text, both folded as the server
     folds names (accents, case, "_" and invisible characters ignored: "szabo" finds "Szabó",
     "lukasz" finds "Łukasz"); the form's submit is cancelled (the list is already filtered).
     #search-count gets its data-template with {shown} and {total} filled in ("3 of 41"),
     and is emptied when the search is.
   * select#vs-select: choosing an option goes to its value, a URL relative to the page.
*/
(function () {
  "use strict";

  var lang = document.documentElement.lang || undefined;
  var collator = new Intl.Collator(lang, { numeric: true, sensitivity: "base" });

  // the page language's decimal mark ("," in hu, sv, pl) and digit group separator
  var marks = { decimal: ".", group: "," };
  new Intl.NumberFormat(lang).formatToParts(12345.5).forEach(function (part) {
    if (part.type === "decimal" || part.type === "group") marks[part.type] = part.value;
  });

  function number(text) {
    var plain = text.replace(/[\s\u00a0\u202f]/g, "").replace(/\u2212/g, "-");
    plain = plain.split(marks.group).join("").replace(marks.decimal, ".");
    var value = parseFloat(plain);
    return isNaN(value) ? null : value;
  }

  function sortKey(cell, kind) {
    if (!cell) return null;
    var raw = cell.hasAttribute("data-value") ? cell.getAttribute("data-value") : null;
    var text = (raw !== null ? raw : cell.textContent).trim();
    if (kind === "number") return number(text);
    return text === "" ? null : text;
  }

  function compare(a, b, kind) {
    if (kind === "number") return a - b;
    if (kind === "date") return a < b ? -1 : a > b ? 1 : 0;
    return collator.compare(a, b);
  }

  function sortBy(table, th) {
    var kind = th.getAttribute("data-sort");
    var column = th.cellIndex;
    var direction = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    var body = table.tBodies[0];
    var rows = Array.prototype.map.call(body.rows, function (row, index) {
      return { row: row, index: index, key: sortKey(row.cells[column], kind) };
    });
    rows.sort(function (a, b) {
      if (a.key === null || b.key === null) {
        if (a.key !== b.key) return a.key === null ? 1 : -1; // blanks last, either way
      } else {
        var order = compare(a.key, b.key, kind) * direction;
        if (order) return order;
      }
      return a.index - b.index; // stable
    });
    rows.forEach(function (item) {
      body.appendChild(item.row);
    });
    table.querySelectorAll("th[aria-sort]").forEach(function (other) {
      other.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", direction === 1 ? "ascending" : "descending");
  }

  document.querySelectorAll("table.sortable").forEach(function (table) {
    if (!table.tBodies.length) return;
    table.querySelectorAll("thead th[data-sort]").forEach(function (th) {
      var button = document.createElement("button");
      button.type = "button";
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener("click", function () {
        sortBy(table, th);
      });
    });
  });

  // names folded as engine/formats/names.py fold_name folds them
  var letters = {
    "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th", "ß": "ss"
  };

  function fold(text) {
    return text
      .replace(/[\u200b\u200c\u200d\u2060\ufeff\u00ad]/g, "")
      .replace(/_/g, " ")
      .toLowerCase()
      .replace(/[łøđħıæœþß]/g, function (letter) {
        return letters[letter];
      })
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .replace(/\s+/g, " ")
      .trim();
  }

  var search = document.getElementById("search");
  var ranking = document.getElementById("ranking");
  if (search && ranking && ranking.tBodies.length) {
    var count = document.getElementById("search-count");
    var template = count ? count.getAttribute("data-template") : null;

    var filter = function () {
      var wanted = fold(search.value);
      var rows = ranking.tBodies[0].rows;
      var shown = 0;
      Array.prototype.forEach.call(rows, function (row) {
        var name = row.querySelector("a.player");
        var match = !wanted || (name !== null && fold(name.textContent).indexOf(wanted) !== -1);
        row.hidden = !match;
        if (match) shown += 1;
      });
      if (count && template) {
        count.textContent = wanted
          ? template.replace("{shown}", String(shown)).replace("{total}", String(rows.length))
          : "";
      }
    };

    search.addEventListener("input", filter);
    if (search.form) {
      search.form.addEventListener("submit", function (event) {
        event.preventDefault();
        filter();
      });
    }
    if (search.value) filter();
  }

  var versus = document.getElementById("vs-select");
  if (versus) {
    versus.addEventListener("change", function () {
      if (versus.value) window.location.href = versus.value;
    });
  }
})();
