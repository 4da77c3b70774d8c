import '../components/index.js';
import { DemoApp } from './demo-app.js';

customElements.define('demo-app', DemoApp);
