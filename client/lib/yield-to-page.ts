/**
 * Ends the current task so input and rendering get their turn, and resumes in a task of its own
 * soon after: `scheduler.yield()` where the browser has it, else a message, which (unlike a chained
 * timer) is not slowed to 4 ms.
 */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
