/*
 * For the site that embeds a scheduling or confirmation page in an iframe: sizes each such iframe
 * to the height its page reports (pages.js posts it). Only messages from the iframe's own window
 * and origin are read. Usage: docs/pages.md.
 */
(function () {
  'use strict';
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || data.type !== 'scheduling-page:height' || typeof data.height !== 'number') return;
    var frames = document.querySelectorAll('iframe[data-scheduling-page]');
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      if (frame.contentWindow !== event.source) continue;
      if (new URL(frame.src, window.location.href).origin !== event.origin) continue;
      frame.style.height = Math.max(200, Math.ceil(data.height)) + 'px';
    }
  });
})();
