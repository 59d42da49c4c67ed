import DashboardPage from '../../features/dashboard/DashboardPage';
import { dashboardSections } from '../dashboardSections';

/** /dashboard: the dashboard feature with the sections the app composes for it. */
export default function Dashboard() {
  return <DashboardPage sections={dashboardSections} />;
}
