// Preloaded (`node --import`) into servers the tests start that cannot be told where to listen
// (server-everything reads only PORT and binds every interface): binds them to 127.0.0.1 and
// reports the port the OS chose for PORT=0 on stderr as `LISTENING <port>`.
import { Server } from 'node:net';

const listen = Server.prototype.listen;
Server.prototype.listen = function listenOnLoopback(...args) {
  if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const callback = typeof args.at(-1) === 'function' ? args.pop() : undefined;
    this.once('listening', () => process.stderr.write(`LISTENING ${this.address().port}\n`));
    return listen.call(this, Number(args[0]), '127.0.0.1', callback);
  }
  return listen.apply(this, args);
};
