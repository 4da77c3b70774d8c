import type { FrameScheduler } from '../markdown/frame-scheduler.js';
import { Transcript } from '../transcript/transcript.js';
import type { SessionHost } from './session-host.js';

/**
 * A new {@link Transcript} for the session, its markdown options read from `host` when a
 * message renders, not now: the transcript is built in the element's constructor, before an
 * `allow-remote-images` attribute has been read.
 */
export function sessionTranscript(
  host: Pick<SessionHost, 'markdownOptions'>,
  scheduler: FrameScheduler,
): Transcript {
  const markdown = {
    get allowRemoteImages() {
      return host.markdownOptions().allowRemoteImages === true;
    },
    get translate() {
      return host.markdownOptions().translate;
    },
  };
  return new Transcript({ scheduler, markdown });
}
