import { promisifyRequest, type UseStore } from 'idb-keyval';

/** Options for {@link openDatabase}. */
export interface OpenDatabaseOptions {
  dbName: string;
  storeName: string;
  /** The IndexedDB factory (default: the global `indexedDB`): another frame's, or fake-indexeddb. */
  indexedDB?: IDBFactory | undefined;
}

/** An idb-keyval custom store over one object store, and the way to close its connection. */
export interface OpenedDatabase {
  store: UseStore;
  /** Closes the connection; later transactions reject. */
  close(): void;
}

/**
 * idb-keyval's `createStore`, plus what a long-lived history needs: an injectable factory, a
 * `close()`, giving the connection up when another tab wants to upgrade or delete the database
 * (`versionchange`; otherwise that tab stays blocked until this one closes), and rejecting
 * instead of hanging when our own open is `blocked`. A connection the browser closes (Safari
 * does, Chromium on storage pressure) is reopened on the next transaction.
 */
export function openDatabase(options: OpenDatabaseOptions): OpenedDatabase {
  const { dbName, storeName } = options;
  let database: Promise<IDBDatabase> | undefined;
  let closed = false;

  const connect = (): Promise<IDBDatabase> => {
    // Undefined at run time in Node and in some privacy modes, whatever the DOM types say.
    const factory: IDBFactory | undefined = options.indexedDB ?? globalThis.indexedDB;
    if (factory === undefined) {
      return Promise.reject(new Error('IndexedDB is not available in this environment'));
    }
    let request: IDBOpenDBRequest;
    try {
      request = factory.open(dbName);
    } catch (error) {
      // Chromium throws SecurityError here for opaque origins and blocked third-party storage.
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    const opening = promisifyRequest(request);
    let gaveUp = false;
    const opened = new Promise<IDBDatabase>((resolve, reject) => {
      request.onblocked = () => {
        gaveUp = true;
        reject(new DOMException(`Opening "${dbName}" is blocked by another tab`, 'BlockedError'));
      };
      opening.then(resolve, reject);
    });
    opening.then(
      (db) => {
        // A late success after we gave up (blocked), or after close(): nobody will use it.
        if (gaveUp || closed || database !== opened) {
          db.close();
          return;
        }
        db.onversionchange = () => {
          db.close();
          if (database === opened) database = undefined;
        };
        db.onclose = () => {
          if (database === opened) database = undefined;
        };
      },
      () => undefined, // reported through `opened`
    );
    opened.catch(() => {
      if (database === opened) database = undefined; // retry the open on the next transaction
    });
    return opened;
  };

  const store: UseStore = (mode, callback) => {
    if (closed) return Promise.reject(new Error(`The history database "${dbName}" was closed`));
    database ??= connect();
    return database.then((db) => callback(db.transaction(storeName, mode).objectStore(storeName)));
  };

  return {
    store,
    close() {
      closed = true;
      const current = database;
      database = undefined;
      current?.then(
        (db) => db.close(),
        () => undefined,
      );
    },
  };
}
