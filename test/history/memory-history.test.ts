import { memoryHistory } from '../../src/history/memory-history.js';
import { describeHistoryStore } from './history-store-contract.js';

describeHistoryStore('memoryHistory', (now) => memoryHistory({ now }));
