/*
 * The client pages' one script. Everything works without it (each step is a GET or POST form);
 * it only makes things smoother: the browser's time zone is chosen at the first visit, the time
 * list of a date comes without reloading the page, and inside an iframe the page tells the
 * embedding page its height (embed.js listens).
 */
(function () {
  'use strict';

  // The first visit without a zone in the link: the browser's own zone, if the page offers it.
  // The picker asks for a guess only when no zone was chosen (a page answering a form has its
  // zone in the form, not in its URL: it is never reloaded).
  var picker = document.querySelector('select[data-zone-picker]');
  var url = new URL(window.location.href);
  if (picker && !url.searchParams.has('timezone')) {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // The server shows it if it knows it (and ignores it otherwise): one reload at most.
    if (zone && picker.value !== zone) {
      url.searchParams.set('timezone', zone);
      window.location.replace(url.toString());
      return;
    }
  }

  // Choosing a date fetches its times and puts them in place of the list (the page keeps focus).
  var dateForm = document.getElementById('date-form');
  if (dateForm && dateForm.action.indexOf('/schedule/') !== -1) {
    dateForm.addEventListener('change', function (event) {
      if (event.target.name !== 'date') return;
      var query = new URLSearchParams(new FormData(dateForm));
      query.set('part', 'times');
      fetch(dateForm.action + '?' + query.toString(), { credentials: 'same-origin' })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.text();
        })
        .then(function (fragment) {
          var parsed = new DOMParser().parseFromString(fragment, 'text/html');
          var times = parsed.getElementById('times');
          if (!times) return;
          var current = document.getElementById('times');
          if (current) current.replaceWith(times);
          else dateForm.insertAdjacentElement('afterend', times);
          query.delete('part');
          window.history.replaceState(null, '', dateForm.action + '?' + query.toString());
          sendHeight();
        })
        .catch(function () {
          dateForm.submit();
        });
    });
  }

  // Inside an iframe: the height of the page, for embed.js to size the frame.
  function sendHeight() {
    if (window.parent === window) return;
    window.parent.postMessage(
      { type: 'scheduling-page:height', height: document.documentElement.scrollHeight },
      '*',
    );
  }
  if (window.parent !== window) {
    sendHeight();
    if (typeof ResizeObserver === 'function') new ResizeObserver(sendHeight).observe(document.body);
  }
})();
