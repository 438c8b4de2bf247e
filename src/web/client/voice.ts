import { fieldValue } from './http.js';

/** The box's text with the transcription added: alone when the box is empty, else on a new line. */
function withTranscript(current: string, transcript: string): string {
  return current.trim() === '' ? transcript : `${current.trimEnd()}\n${transcript}`;
}

/*
 * Voice capture (Pro): record with MediaRecorder, upload with this form's CSRF token, and put
 * the text in the capture box to review before saving.
 */
export function installVoice(): void {
  document.querySelectorAll<HTMLButtonElement>('button[data-voice]').forEach((button) => {
    const form = button.form;
    const status = form?.querySelector('[data-voice-status]');
    const box = form?.querySelector<HTMLTextAreaElement>('textarea[name=text]');
    const say = (text: string): void => {
      if (status) status.textContent = text;
    };
    let unavailable = button.getAttribute('data-voice-unavailable');
    if (!unavailable && !(window.MediaRecorder && navigator.mediaDevices?.getUserMedia)) unavailable = 'This browser cannot record audio.';
    button.hidden = false;
    let recorder: MediaRecorder | null = null;
    button.addEventListener('click', () => {
      if (unavailable) {
        say(unavailable);
        return;
      }
      if (recorder?.state === 'recording') {
        recorder.stop();
        return;
      }
      navigator.mediaDevices.getUserMedia({ audio: true }).then(
        (stream) => {
          const chunks: Blob[] = [];
          const current = new MediaRecorder(stream);
          recorder = current;
          current.addEventListener('dataavailable', (event) => {
            if (event.data.size > 0) chunks.push(event.data);
          });
          current.addEventListener('stop', () => {
            stream.getTracks().forEach((track) => track.stop());
            button.setAttribute('aria-pressed', 'false');
            button.textContent = 'Record';
            say('Transcribing…');
            if (!form || !box) return;
            const data = new FormData();
            data.append('_csrf', fieldValue(form, '_csrf'));
            data.append('file', new Blob(chunks, { type: current.mimeType || 'audio/webm' }), 'voice.webm');
            transcribe(data).then(
              (answer) => {
                if (answer.error) return say(answer.error);
                if (!answer.text) return say('Nothing was heard. Try again, closer to the microphone.');
                box.value = withTranscript(box.value, answer.text);
                box.focus();
                say('Transcribed: check the text and press Capture.');
              },
              () => say('The recording could not be sent. Check the connection and try again.'),
            );
          });
          current.start();
          button.setAttribute('aria-pressed', 'true');
          button.textContent = 'Stop';
          say('Recording… press Stop when done.');
        },
        () => say('The microphone is not available or was not allowed.'),
      );
    });
  });
}

interface Transcription {
  text?: string;
  error?: string;
}

async function transcribe(data: FormData): Promise<Transcription> {
  const res = await fetch('/inbox/voice', { method: 'POST', body: data, credentials: 'same-origin' });
  try {
    return (await res.json()) as Transcription;
  } catch {
    return { error: 'The server could not read the recording.' };
  }
}
