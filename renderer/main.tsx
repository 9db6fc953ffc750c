// Entry: styles, the engine connection, the React root. Nothing else happens at load.
import './no-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'uplot/dist/uPlot.min.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/lanes.css';
import './styles/lane-parts.css';
import './styles/jobs.css';
import './styles/detail.css';
import './styles/timeline.css';
import './styles/forms.css';
import { followLog } from './actions';
import { start } from './live';
import { App } from './components/App';

// A job event for the open job may come with new output: read the log on.
start(() => void followLog());

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
