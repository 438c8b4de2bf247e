/*
 * The web app's only script: progressive enhancement of server-rendered pages (Enter to capture,
 * shortcuts, confirmations, copy buttons, the browser's time zone, voice recording, the quick-add
 * preview). Served by
 * assets.ts with a content hash; plain ES5-style so it needs no build step.
 */
export const JS = `
(function () {
  document.documentElement.classList.add('js');

  // Enter captures; Shift+Enter starts a new line (and an IME composition is left alone). On a
  // touch screen Return is a new line, as a phone's keyboard promises, and the Capture button saves.
  var touch = window.matchMedia && window.matchMedia('(pointer: coarse)').matches;
  if (touch) document.documentElement.classList.add('touch');
  document.querySelectorAll('#capture-keys').forEach(function (hint) { if (touch) hint.textContent = 'Return starts a new line; press Capture to save.'; });
  document.querySelectorAll('textarea[data-enter-submits]').forEach(function (area) {
    area.setAttribute('enterkeyhint', touch ? 'enter' : 'send');
    area.addEventListener('keydown', function (event) {
      if (touch || event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
      event.preventDefault();
      if (area.value.trim() !== '') area.form.requestSubmit();
    });
  });

  // Offline capture: each capture carries a client_id (the server saves one item per id), so a
  // capture made without a network waits in IndexedDB ("2 waiting") and is sent again, with the
  // same id, when the browser is back online: nothing is lost and nothing is saved twice.
  var queue = document.querySelector('[data-offline-queue]');
  var captureForm = queue && queue.closest('form');
  var uuid = function () { return window.crypto && crypto.randomUUID ? crypto.randomUUID() : ''; };
  var store = function (mode, work) {
    return new Promise(function (resolve, reject) {
      if (!window.indexedDB) { reject(new Error('no IndexedDB')); return; }
      var open = indexedDB.open('cin-offline', 1);
      open.onupgradeneeded = function () { open.result.createObjectStore('captures', { keyPath: 'client_id' }); };
      open.onerror = function () { reject(open.error); };
      open.onsuccess = function () {
        var tx = open.result.transaction('captures', mode);
        var result = work(tx.objectStore('captures'));
        tx.oncomplete = function () { open.result.close(); resolve(result && 'result' in result ? result.result : undefined); };
        tx.onerror = function () { open.result.close(); reject(tx.error); };
      };
    });
  };
  var waiting = function () {
    return store('readonly', function (s) { return s.getAll(); }).then(function (list) {
      // In the order they were typed, so the Inbox lists them as if saved at the time.
      list.sort(function (a, b) { return a.at - b.at; });
      if (!queue) return list;
      queue.hidden = list.length === 0;
      queue.textContent = list.length === 0 ? '' : list.length + ' waiting to be saved: they are sent when the connection is back.';
      return list;
    });
  };
  var replaying = false;
  var replay = function () {
    if (replaying || !captureForm || !navigator.onLine) return;
    replaying = true;
    waiting().then(function (list) {
      var last = null;
      var next = function (i) {
        if (i >= list.length) {
          replaying = false;
          if (last) swap(last, null, -1);
          waiting();
          return;
        }
        var entry = list[i];
        var data = new URLSearchParams();
        data.append('_csrf', captureForm.querySelector('input[name=_csrf]').value);
        data.append('return', captureForm.querySelector('input[name=return]').value);
        Object.keys(entry).forEach(function (k) { if (k !== 'at') data.append(k, entry[k]); });
        post('/inbox/capture', data).then(function (page) {
          last = page;
          return store('readwrite', function (s) { s.delete(entry.client_id); });
        }).then(function () { next(i + 1); }, function () { replaying = false; waiting(); });
      };
      next(0);
    }, function () { replaying = false; });
  };
  if (captureForm) {
    captureForm.addEventListener('submit', function (event) {
      var id = captureForm.querySelector('input[name=client_id]');
      if (id && !id.value) id.value = uuid();
      if (navigator.onLine || !id || !id.value) return;
      event.preventDefault();
      var box = captureForm.querySelector('textarea[name=text]');
      if (box.value.trim() === '') return;
      var entry = { client_id: id.value, text: box.value, at: Date.now() };
      ['type', 'project_id'].forEach(function (name) { var f = captureForm.querySelector('[name=' + name + ']'); if (f && f.value) entry[name] = f.value; });
      store('readwrite', function (s) { s.put(entry); }).then(function () {
        box.value = '';
        id.value = '';
        waiting();
      }, function () { captureForm.submit(); });
    });
    window.addEventListener('online', replay);
    if (window.indexedDB) { waiting(); replay(); }
  }

  // The service worker (sw.js) keeps the app shell and the last list pages for offline use; signing
  // out deletes those copies.
  if (navigator.serviceWorker && window.isSecureContext) navigator.serviceWorker.register('/sw.js').catch(function () { /* online-only then */ });
  document.querySelectorAll('form[action="/logout"]').forEach(function (form) {
    form.addEventListener('submit', function () { if (window.caches) caches.delete('cin-pages'); });
  });
  if (window.caches && document.querySelector('form[action="/login"]')) caches.delete('cin-pages');

  // Web push for this browser (Notifications page): the service worker subscribes with the
  // server's VAPID key and the subscription is sent to be stored as a webpush channel. Without
  // the Push API (or outside a secure context) the page says what to use instead.
  var pushCard = document.getElementById('push');
  if (pushCard) {
    var pushState = document.getElementById('push-state');
    var pushOn = document.getElementById('push-on');
    var pushSay = function (text) { pushState.textContent = text; };
    if (!window.isSecureContext || !navigator.serviceWorker || !window.PushManager || !window.Notification) {
      pushSay(window.isSecureContext
        ? 'This browser has no web push here. On an iPhone or iPad, add this app to the Home Screen and open it from there; elsewhere use an ntfy topic or email below.'
        : 'Web push needs this page over HTTPS. Use an ntfy topic or email below, or open the app at its https:// address.');
    } else {
      pushSay(Notification.permission === 'denied' ? 'Notifications are blocked for this site: allow them in the browser’s site settings, then turn push on.' : 'Push is off for this browser.');
      pushOn.hidden = false;
      navigator.serviceWorker.register('/sw.js').then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
        if (sub) { pushSay('This browser is subscribed. Turn push on again if it stopped arriving.'); pushOn.textContent = 'Subscribe this browser again'; }
      }, function () { /* the button still tries */ });
      var keyBytes = function (text) {
        var b64 = text.replace(/-/g, '+').replace(/_/g, '/');
        while (b64.length % 4) b64 += '=';
        var raw = atob(b64);
        var out = new Uint8Array(raw.length);
        for (var i = 0; i < raw.length; i += 1) out[i] = raw.charCodeAt(i);
        return out;
      };
      pushOn.addEventListener('click', function () {
        pushOn.disabled = true;
        pushSay('Turning push on…');
        Notification.requestPermission().then(function (permission) {
          if (permission !== 'granted') throw new Error('Notifications are not allowed for this site: allow them in the browser’s site settings and try again.');
          return navigator.serviceWorker.register('/sw.js').then(function () { return navigator.serviceWorker.ready; });
        }).then(function (reg) {
          return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(pushCard.getAttribute('data-push-key')) });
        }).then(function (sub) {
          return fetch('/account/notifications/push', {
            method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ _csrf: pushCard.getAttribute('data-csrf'), subscription: sub.toJSON() }),
          });
        }).then(function (res) {
          if (res.ok) { window.location.assign('/account/notifications?done=push'); return; }
          return res.json().then(function (body) { throw new Error(body.message || ''); }, function () { throw new Error('The server refused the subscription (HTTP ' + res.status + ').'); });
        }).catch(function (error) {
          pushOn.disabled = false;
          pushSay('Push could not be turned on. ' + (error && error.message ? error.message : 'The browser’s push service did not answer.'));
        });
      });
    }
  }

  // Escape leaves a text field, so the one-key shortcuts below work again.
  document.querySelectorAll('textarea, input[type=search]').forEach(function (field) {
    field.addEventListener('keydown', function (event) { if (event.key === 'Escape') field.blur(); });
  });

  // Filters apply as soon as they change.
  document.querySelectorAll('select[data-autosubmit]').forEach(function (select) {
    select.addEventListener('change', function () { select.form.requestSubmit(); });
  });

  // A region replaced by a fresh copy from the server keeps what the user is doing in it: the
  // disclosures they opened, what they typed or chose, and the focus (the same control of the same
  // row, found through the nearest element with an id and its place among that one's focusables).
  var FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';
  var focusPlace = function (within) {
    var active = document.activeElement;
    if (!active || !within.some(function (r) { return r.contains(active); })) return null;
    var holder = active.id ? active : active.parentElement && active.parentElement.closest('[id]');
    if (!holder) return null;
    return { id: holder.id, index: holder === active ? -1 : Array.prototype.indexOf.call(holder.querySelectorAll(FOCUSABLE), active) };
  };
  var refocus = function (place) {
    if (!place) return false;
    var holder = document.getElementById(place.id);
    var target = holder && (place.index < 0 ? holder : holder.querySelectorAll(FOCUSABLE)[place.index]);
    if (!target) return false;
    target.focus({ preventScroll: true });
    return document.activeElement === target;
  };
  var edited = function (field) {
    if (field.tagName !== 'SELECT') return field.value !== field.defaultValue;
    var chosen = field.options[field.selectedIndex];
    return !chosen || !chosen.defaultSelected;
  };
  var keepState = function (mine, theirs) {
    mine.querySelectorAll('details[id]').forEach(function (d) { var t = theirs.querySelector('#' + CSS.escape(d.id)); if (t) t.open = d.open; });
    // A row's ⋯ menu has no id of its own: its row's says which one it is.
    mine.querySelectorAll('li.item[id] > .line details.more[open]').forEach(function (d) {
      var t = theirs.querySelector('#' + CSS.escape(d.closest('li.item').id) + ' > .line details.more');
      if (t) t.open = true;
    });
    mine.querySelectorAll('input[id], textarea[id], select[id]').forEach(function (f) {
      var t = theirs.querySelector('#' + CSS.escape(f.id));
      if (t && edited(f)) t.value = f.value;
    });
  };

  // Acting on an item (done, archive, move, a date, delete, a new subtask) happens in place: the
  // form is sent with fetch, the server answers the page the form would have led to, and its lists
  // replace these, so the item moves between Overdue, Today and Done today with no reload. A
  // reversible action offers Undo in a toast. Anything unexpected falls back to the plain form.
  var toast = document.querySelector('[data-toast]');
  var toastTimer = null;
  var acting = 0;
  var REGIONS = ['lists', 'subtasks'];
  var post = function (url, data) {
    return fetch(url, { method: 'POST', body: data, credentials: 'same-origin' }).then(function (res) {
      if (!res.ok) throw new Error('status ' + res.status);
      return res.text();
    });
  };
  // The answer to an action replaces the lists. If the user has gone on meanwhile (the next row,
  // another row's ⋯ menu), they stay where they went; otherwise the acted-on row (or the one now in
  // its place) gets the focus.
  var swap = function (text, focusId, fallbackIndex, focusedBefore) {
    var fresh = new DOMParser().parseFromString(text, 'text/html');
    var moved = document.activeElement !== focusedBefore && document.activeElement !== document.body;
    var pairs = REGIONS.map(function (id) { return [document.getElementById(id), fresh.getElementById(id)]; }).filter(function (p) { return p[0] && p[1]; });
    var place = moved ? focusPlace(pairs.map(function (p) { return p[0]; })) : null;
    pairs.forEach(function (p) { keepState(p[0], p[1]); p[0].replaceWith(p[1]); });
    if (moved && (!place || refocus(place))) return;
    var target = focusId && document.getElementById(focusId);
    if (!target && fallbackIndex >= 0) {
      var rows = document.querySelectorAll('li.item');
      target = rows[Math.min(fallbackIndex, rows.length - 1)];
    }
    if (target) target.focus();
  };
  var say = function (message, undo) {
    if (!toast) return;
    clearTimeout(toastTimer);
    toast.textContent = '';
    var text = document.createElement('span');
    text.textContent = message;
    toast.appendChild(text);
    if (undo) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'small';
      button.textContent = 'Undo';
      button.addEventListener('click', function () {
        button.disabled = true;
        var before = document.activeElement;
        post(undo.url, undo.data).then(function (page) { swap(page, undo.focus, -1, before); say('Undone.'); }, function () { say('Undo failed: reload the page to see where things are.'); });
      });
      toast.appendChild(button);
    }
    toast.hidden = false;
    toastTimer = setTimeout(function () { toast.hidden = true; }, 8000);
  };
  var inverse = function (action, form, row) {
    var data = new URLSearchParams();
    data.append('_csrf', form.querySelector('input[name=_csrf]').value);
    var back = form.querySelector('input[name=return]');
    if (back) data.append('return', back.value);
    var base = form.action.replace(/\\/[a-z]+$/, '');
    if (action === 'toggle') return { url: base + '/toggle', data: data };
    if (action === 'archive') return { url: base + '/unarchive', data: data };
    if (action === 'unarchive') return { url: base + '/archive', data: data };
    if (!row) return null;
    if (action === 'move') { data.append('project_id', row.getAttribute('data-project-id')); return { url: base + '/move', data: data }; }
    if (action === 'due') { data.append('due_date', row.getAttribute('data-due-date')); data.append('due_time', row.getAttribute('data-due-time')); return { url: base + '/due', data: data }; }
    return null;
  };
  var MESSAGES = { toggle: 'Marked done.', archive: 'Archived.', unarchive: 'Unarchived.', move: 'Moved.', due: 'Date set.', 'delete': 'Deleted.', subtasks: 'Subtask added.' };
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.hasAttribute('data-inplace') || form.getAttribute('data-plain') || !window.fetch || !window.DOMParser) return;
    var button = event.submitter;
    // Delete cannot be undone: it asks first (and the generic confirmation below then stays quiet).
    var question = button && button.getAttribute('data-confirm');
    if (question && !window.confirm(question)) { event.preventDefault(); return; }
    var url = (button && button.getAttribute('formaction')) || form.action;
    var action = url.split('/').pop();
    var row = form.closest('li.item');
    var rows = Array.prototype.slice.call(document.querySelectorAll('li.item'));
    var index = row ? rows.indexOf(row) : -1;
    var wasDone = button && button.getAttribute('aria-pressed') === 'true';
    event.preventDefault();
    var focusedBefore = document.activeElement;
    if (button) button.disabled = true;
    var data = new URLSearchParams(new FormData(form));
    acting += 1;
    post(url, data)
      .finally(function () { acting -= 1; })
      .then(function (text) {
        var undoAction = action === 'toggle' && row ? inverse('toggle', form, row) : inverse(action, form, row);
        if (undoAction) undoAction.focus = row ? row.id : null;
        swap(text, row && action !== 'delete' && action !== 'archive' ? row.id : null, index, focusedBefore);
        if (action === 'subtasks') { var box = document.getElementById('subtask-text'); if (box) box.focus(); }
        say(action === 'toggle' && wasDone ? 'Marked not done.' : MESSAGES[action] || 'Done.', undoAction);
      })
      .catch(function () {
        // A limit, an expired form, a bad date: the ordinary submit shows the page that says so.
        form.setAttribute('data-plain', '1');
        if (button) button.disabled = false;
        form.requestSubmit(button || undefined);
      });
  });

  // Live: an open list or item page follows the user's change stream (GET /live, the API's stream
  // under the session) and, when something changed elsewhere (a capture through the API, a tab),
  // fetches itself again and replaces its live regions, as an action in place does. Debounced; it
  // waits while the user is busy in a region (typing in a field there, a ⋯ menu open, an action
  // on its way) and keeps the focus where it was. The capture box and the Undo toast are outside
  // the regions, so they are never touched. A hidden tab closes its stream and, when shown again,
  // reopens it after the last change it saw; EventSource reconnects by itself after a network error.
  var LIVE_REGIONS = ['lists', 'sidebar', 'subtasks', 'item-view', 'item-notes', 'item-manage'];
  var liveRegions = function () { return LIVE_REGIONS.map(function (id) { return document.getElementById(id); }).filter(Boolean); };
  if (window.EventSource && window.fetch && window.DOMParser && liveRegions().length > 0) {
    var source = null;
    var lastId = '';
    var refreshTimer = null;
    var pending = false;
    var fetching = false;
    var retries = 0;
    // A region the user is busy in (typing in one of its fields, its ⋯ menu open) is left as it is
    // and fetched again once they leave it; the other regions are replaced meanwhile.
    var held = function (region) {
      var active = document.activeElement;
      if (active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && region.contains(active)) return true;
      return region.querySelector('details.more[open]') !== null;
    };
    var replaceRegions = function (text) {
      var fresh = new DOMParser().parseFromString(text, 'text/html');
      var place = focusPlace(liveRegions());
      liveRegions().forEach(function (mine) {
        var theirs = fresh.getElementById(mine.id);
        if (!theirs) return;
        if (held(mine)) { pending = true; return; }
        keepState(mine, theirs);
        mine.replaceWith(theirs);
      });
      refocus(place);
    };
    var refresh = function () {
      refreshTimer = null;
      if (document.hidden) { pending = true; return; }
      // An action on its way brings its own fresh copy; this one is fetched after it.
      if (acting > 0 || fetching) { pending = true; refreshTimer = setTimeout(refresh, 1000); return; }
      pending = false;
      fetching = true;
      fetch(window.location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } })
        .then(function (res) { if (!res.ok || res.redirected) throw new Error('status ' + res.status); return res.text(); })
        .then(function (text) {
          fetching = false;
          // An action started meanwhile wins; the page is fetched again after it.
          if (acting > 0) { pending = true; refreshTimer = setTimeout(refresh, 1000); return; }
          replaceRegions(text);
          document.documentElement.setAttribute('data-live-updated', String(Date.now()));
        }, function () { fetching = false; });
    };
    var soon = function () {
      if (refreshTimer) clearTimeout(refreshTimer);
      refreshTimer = setTimeout(refresh, 300);
    };
    var open = function () {
      if (source) return;
      source = new EventSource('/live' + (lastId ? '?cursor=' + encodeURIComponent(lastId) : ''));
      source.addEventListener('open', function () { retries = 0; document.documentElement.setAttribute('data-live', 'open'); });
      source.addEventListener('change', function (event) { if (event.lastEventId) lastId = event.lastEventId; soon(); });
      source.addEventListener('error', function () {
        document.documentElement.setAttribute('data-live', 'closed');
        if (!source || source.readyState !== 2) return;
        // Refused (signed out, too many streams, a cursor too old): the browser does not retry, so
        // this page does, a few times, from the newest change, and fetches itself once.
        source = null;
        lastId = '';
        if (retries < 5) { retries += 1; setTimeout(function () { if (!document.hidden && !source) { open(); soon(); } }, 30000); }
      });
    };
    var close = function () { if (source) { source.close(); source = null; } };
    document.addEventListener('visibilitychange', function () {
      if (document.hidden) { close(); return; }
      // Without a change seen, the stream starts at the newest one: fetch once for what came meanwhile.
      if (!lastId) pending = true;
      open();
      if (pending) soon();
    });
    // A deferred refresh runs as soon as the user leaves the field or closes the menu.
    document.addEventListener('focusout', function () { if (pending && !refreshTimer) soon(); });
    document.addEventListener('toggle', function () { if (pending && !refreshTimer) soon(); }, true);
    if (!document.hidden) open();
  }

  // Destructive forms and buttons ask first.
  document.addEventListener('submit', function (event) {
    if (event.defaultPrevented || event.target.getAttribute('data-plain')) return;
    var asker = (event.submitter && event.submitter.getAttribute('data-confirm')) ? event.submitter : event.target;
    var question = asker.getAttribute && asker.getAttribute('data-confirm');
    if (question && !window.confirm(question)) event.preventDefault();
  });

  // Copy buttons copy the field they name.
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var field = document.getElementById(button.getAttribute('data-copy'));
      if (!field) return;
      var done = function () { button.textContent = 'Copied'; };
      field.select();
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand('copy'); done(); });
      else { document.execCommand('copy'); done(); }
    });
  });


  // Voice capture (Pro): record with MediaRecorder, upload with this form's CSRF token, and put
  // the text in the capture box to review before saving.
  document.querySelectorAll('button[data-voice]').forEach(function (button) {
    var form = button.form;
    var status = form && form.querySelector('[data-voice-status]');
    var box = form && form.querySelector('textarea[name=text]');
    var say = function (text) { if (status) status.textContent = text; };
    var unavailable = button.getAttribute('data-voice-unavailable');
    if (!unavailable && !(window.MediaRecorder && navigator.mediaDevices && navigator.mediaDevices.getUserMedia)) unavailable = 'This browser cannot record audio.';
    button.hidden = false;
    var recorder = null;
    var chunks = [];
    button.addEventListener('click', function () {
      if (unavailable) { say(unavailable); return; }
      if (recorder && recorder.state === 'recording') { recorder.stop(); return; }
      navigator.mediaDevices.getUserMedia({ audio: true }).then(function (stream) {
        chunks = [];
        recorder = new MediaRecorder(stream);
        recorder.addEventListener('dataavailable', function (e) { if (e.data.size > 0) chunks.push(e.data); });
        recorder.addEventListener('stop', function () {
          stream.getTracks().forEach(function (t) { t.stop(); });
          button.setAttribute('aria-pressed', 'false');
          button.textContent = 'Record';
          say('Transcribing…');
          var data = new FormData();
          data.append('_csrf', form.querySelector('input[name=_csrf]').value);
          data.append('file', new Blob(chunks, { type: recorder.mimeType || 'audio/webm' }), 'voice.webm');
          fetch('/inbox/voice', { method: 'POST', body: data, credentials: 'same-origin' })
            .then(function (res) { return res.json().catch(function () { return { error: 'The server could not read the recording.' }; }); })
            .then(function (answer) {
              if (answer.error) { say(answer.error); return; }
              if (!answer.text) { say('Nothing was heard. Try again, closer to the microphone.'); return; }
              box.value = box.value.trim() === '' ? answer.text : box.value.trimEnd() + String.fromCharCode(10) + answer.text;
              box.focus();
              say('Transcribed: check the text and press Capture.');
            }, function () { say('The recording could not be sent. Check the connection and try again.'); });
        });
        recorder.start();
        button.setAttribute('aria-pressed', 'true');
        button.textContent = 'Stop';
        say('Recording… press Stop when done.');
      }, function () { say('The microphone is not available or was not allowed.'); });
    });
  });

  // Quick add while typing: what the first line says (#project, @tag, a date, every …) is shown
  // under the box, from the server's own reading (debounced). The text is never touched, so a
  // failed request only hides the preview; an answer to older text is dropped.
  document.querySelectorAll('[data-quick-add]').forEach(function (preview) {
    var form = preview.closest('form');
    var box = form && form.querySelector('textarea[name=text]');
    if (!box || !window.fetch) return;
    var LABELS = { project: 'Project', tag: 'Tag', date: 'Due', recurrence: 'Repeats' };
    var timer = null;
    var asked = 0;
    var projectName = function (id) {
      var option = form.querySelector('select[name=project_id] option[value="' + id + '"]');
      return option ? option.textContent : '';
    };
    var show = function (spans) {
      preview.textContent = '';
      spans.forEach(function (span) {
        var chip = document.createElement('span');
        chip.className = 'chip chip-' + span.kind;
        chip.setAttribute('data-kind', span.kind);
        var label = document.createElement('b');
        label.textContent = LABELS[span.kind] + ' ';
        chip.appendChild(label);
        var name = span.kind === 'project' ? projectName(span.value) : '';
        var meaning = span.shown || (name && name.toLowerCase() !== span.text.slice(1).toLowerCase() ? name : '');
        chip.appendChild(document.createTextNode(span.text + (meaning ? ' · ' + meaning : '')));
        preview.appendChild(chip);
      });
      preview.hidden = spans.length === 0;
    };
    var ask = function () {
      var text = box.value;
      var mine = ++asked;
      if (text.trim() === '') { show([]); return; }
      var data = new URLSearchParams();
      data.append('_csrf', form.querySelector('input[name=_csrf]').value);
      data.append('text', text);
      fetch('/inbox/parse', { method: 'POST', body: data, credentials: 'same-origin' })
        .then(function (res) { if (!res.ok) throw new Error('status ' + res.status); return res.json(); })
        .then(function (answer) { if (mine === asked) show(answer.spans || []); })
        .catch(function () { if (mine === asked) show([]); });
    };
    box.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(ask, 250);
    });
    if (box.value.trim() !== '') ask();
  });

  // The browser's time zone, for new accounts.
  document.querySelectorAll('input[data-timezone]').forEach(function (input) {
    try { input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ''; } catch (e) { /* stays UTC */ }
  });

  // "/" jumps to search, "c" to the capture box (from any page: elsewhere it opens Today's), "?"
  // lists the shortcuts, "g" then t/u/i/p goes to Today, Upcoming, the Inbox, projects; j/k move
  // through the items, x marks the current one done, e opens it, # moves it: unless the user is typing.
  var pendingG = false;
  var rowOf = function () { return document.activeElement && document.activeElement.closest ? document.activeElement.closest('li.item') : null; };
  var step = function (by) {
    var rows = Array.prototype.slice.call(document.querySelectorAll('li.item'));
    if (rows.length === 0) return;
    var at = rows.indexOf(rowOf());
    var next = rows[at < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, at + by))];
    next.focus();
    next.scrollIntoView({ block: 'nearest' });
  };
  document.addEventListener('keydown', function (event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var GO = { t: '/', u: '/upcoming', i: '/inbox', p: '/projects' };
    if (pendingG) {
      pendingG = false;
      if (GO[event.key]) { window.location.href = GO[event.key]; return; }
    }
    if (event.key === 'g') { pendingG = true; return; }
    if (event.key === '?') {
      var dialog = document.getElementById('shortcuts');
      if (dialog && typeof dialog.showModal === 'function' && !dialog.open) { event.preventDefault(); dialog.showModal(); }
      return;
    }
    if (event.key === 'j' || event.key === 'k') { event.preventDefault(); step(event.key === 'j' ? 1 : -1); return; }
    var row = rowOf();
    if (row && event.key === 'x') { event.preventDefault(); row.querySelector('button.check').click(); return; }
    if (row && event.key === 'e') { event.preventDefault(); window.location.href = row.querySelector('.title a').href + '#edit'; return; }
    if (row && event.key === '#') {
      event.preventDefault();
      var more = row.querySelector('details.more');
      more.open = true;
      more.querySelector('select[name=project_id]').focus();
      return;
    }
    if (event.key === 'e') {
      var edit = document.getElementById('edit');
      if (edit) { event.preventDefault(); edit.open = true; document.getElementById('title').focus(); return; }
    }
    if (event.key === 'c' && !document.getElementById('capture-text')) { window.location.href = '/#capture'; return; }
    var id = event.key === '/' ? 'search' : event.key === 'c' ? 'capture-text' : null;
    var field = id && document.getElementById(id);
    if (field) { event.preventDefault(); field.focus(); }
  });

  // Opening an item to edit it (e from a list, or #edit) opens its form.
  if (window.location.hash === '#edit') {
    var editing = document.getElementById('edit');
    if (editing) { editing.open = true; var title = document.getElementById('title'); if (title) title.focus(); }
  }
  if (window.location.hash === '#capture') { var box = document.getElementById('capture-text'); if (box) box.focus(); }
})();
`;
