/*
 * The client pages' one script. Everything works without it (each step is a link, or a GET or POST
 * form); it only makes things smoother: the browser's time zone is chosen at the first visit, the
 * time list of a day comes without reloading the page, and inside an iframe the page tells the
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

  // Choosing a day of the month's grid fetches its times and puts them in place of the list,
  // without a reload (the link keeps focus; the grid marks the new day). Without the script, or
  // if the fetch fails, the link loads the whole page of that day.
  var month = document.getElementById('month');
  if (month && window.location.pathname.indexOf('/schedule/') === 0) {
    month.addEventListener('click', function (event) {
      var link = event.target.closest ? event.target.closest('a.day') : null;
      if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      var url = new URL(link.href);
      url.searchParams.set('part', 'times');
      fetch(url.toString(), { credentials: 'same-origin' })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.text();
        })
        .then(function (fragment) {
          var parsed = new DOMParser().parseFromString(fragment, 'text/html');
          var times = parsed.getElementById('times');
          if (!times) throw new Error('no times');
          var current = document.getElementById('times');
          if (current) current.replaceWith(times);
          else month.closest('section').insertAdjacentElement('afterend', times);
          var chosen = month.querySelectorAll('[aria-current="true"]');
          for (var i = 0; i < chosen.length; i++) {
            chosen[i].classList.remove('chosen');
            if (chosen[i].classList.contains('today'))
              chosen[i].setAttribute('aria-current', 'date');
            else chosen[i].removeAttribute('aria-current');
          }
          link.classList.add('chosen');
          link.setAttribute('aria-current', 'true');
          window.history.replaceState(null, '', link.href);
          // The links to this page in other languages follow it to the chosen day.
          var languages = document.querySelectorAll('nav.languages a[hreflang]');
          for (var j = 0; j < languages.length; j++) {
            var other = new URL(link.href);
            other.searchParams.set('lang', languages[j].getAttribute('hreflang'));
            languages[j].href = other.pathname + other.search;
          }
          sendHeight();
        })
        .catch(function () {
          window.location.assign(link.href);
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
