/*
 * The web app's only script: progressive enhancement of server-rendered pages (Enter to capture,
 * shortcuts, confirmations, copy buttons, the browser's time zone, voice recording, the quick-add
 * preview). Served by
 * assets.ts with a content hash; plain ES5-style so it needs no build step.
 */
export const JS = `
(function () {
  document.documentElement.classList.add('js');

  // Enter captures; Shift+Enter starts a new line (and an IME composition is left alone).
  document.querySelectorAll('textarea[data-enter-submits]').forEach(function (area) {
    area.addEventListener('keydown', function (event) {
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
      event.preventDefault();
      if (area.value.trim() !== '') area.form.requestSubmit();
    });
  });

  // Escape leaves a text field, so the one-key shortcuts below work again.
  document.querySelectorAll('textarea, input[type=search]').forEach(function (field) {
    field.addEventListener('keydown', function (event) { if (event.key === 'Escape') field.blur(); });
  });

  // Filters apply as soon as they change.
  document.querySelectorAll('select[data-autosubmit]').forEach(function (select) {
    select.addEventListener('change', function () { select.form.requestSubmit(); });
  });

  // Marking an item done (or not) swaps its row in place instead of reloading the page; the
  // server answers the same page the form would have led to, and its row replaces this one.
  document.addEventListener('submit', function (event) {
    var form = event.target;
    var button = event.submitter;
    if (event.defaultPrevented || !button || !button.classList.contains('check') || form.getAttribute('data-plain')) return;
    var row = form.closest('li.item');
    if (!row || !window.fetch || !window.DOMParser) return;
    event.preventDefault();
    button.disabled = true;
    fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)), credentials: 'same-origin' })
      .then(function (res) {
        if (!res.ok) throw new Error('status ' + res.status);
        return res.text();
      })
      .then(function (text) {
        var fresh = new DOMParser().parseFromString(text, 'text/html').getElementById(row.id);
        if (fresh) { row.replaceWith(fresh); fresh.focus(); } else { row.remove(); }
      })
      .catch(function () {
        // Anything unexpected (a limit, an expired form): the ordinary submit shows the page.
        form.setAttribute('data-plain', '1');
        button.disabled = false;
        form.requestSubmit(button);
      });
  });

  // Destructive forms and buttons ask first.
  document.addEventListener('submit', function (event) {
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

  // "/" jumps to search, "c" to the capture box, "?" lists the shortcuts, "g p" opens projects,
  // "g i" the inbox: unless the user is typing somewhere.
  var pendingG = false;
  document.addEventListener('keydown', function (event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (pendingG) {
      pendingG = false;
      if (event.key === 'p') { window.location.href = '/projects'; return; }
      if (event.key === 'i') { window.location.href = '/'; return; }
    }
    if (event.key === 'g') { pendingG = true; return; }
    if (event.key === '?') {
      var dialog = document.getElementById('shortcuts');
      if (dialog && typeof dialog.showModal === 'function' && !dialog.open) { event.preventDefault(); dialog.showModal(); }
      return;
    }
    var id = event.key === '/' ? 'search' : event.key === 'c' ? 'capture-text' : null;
    var field = id && document.getElementById(id);
    if (field) { event.preventDefault(); field.focus(); }
  });
})();
`;
