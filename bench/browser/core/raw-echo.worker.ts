// The floor for the worker round trip: one postMessage each way, no protocol.
self.addEventListener('message', (event: MessageEvent<unknown>) => self.postMessage(event.data));
