// The static copy's search page (export_static): Pagefind's own interface over the index
// built beside the pages, started with the query the header's box sent (?q=).
(function () {
  var element = document.getElementById("static-search");
  if (!element || typeof PagefindUI === "undefined") return;
  var ui = new PagefindUI({
    element: "#static-search",
    bundlePath: element.getAttribute("data-bundle"),
    showImages: false,
    resetStyles: false,
    autofocus: true,
  });
  var query = new URLSearchParams(window.location.search).get("q");
  if (query) ui.triggerSearch(query);
})();
