// Entry: styles, the engine connection, the React root. Nothing else happens at load.
import './no-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'uplot/dist/uPlot.min.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/lanes.css';
import './styles/jobs.css';
import './styles/timeline.css';
import { start } from './actions';
import { App } from './components/App';

start();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
