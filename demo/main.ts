import '../components/index.js';
import '../components/model-picker/index.js';
import { DemoApp } from './demo-app.js';
import { DemoMcpPanel } from './mcp-panel.js';

customElements.define('demo-app', DemoApp);
customElements.define('demo-mcp-panel', DemoMcpPanel);
