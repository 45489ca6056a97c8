/**
 * A "something changed" signal within the page: what a store of the device announces after a
 * write, and what the pages showing it listen to. No payload: listeners read the store again.
 */
export type ChangeSignal = {
  /** Calls `listener` at each change; answers the call that stops it. */
  subscribe(listener: () => void): () => void;
  announce(): void;
};

export function createChangeSignal(): ChangeSignal {
  const target = new EventTarget();
  return {
    subscribe(listener) {
      target.addEventListener('change', listener);
      return () => target.removeEventListener('change', listener);
    },
    announce: () => target.dispatchEvent(new Event('change')),
  };
}
