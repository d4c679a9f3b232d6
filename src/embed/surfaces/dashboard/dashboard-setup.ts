/** The set-up of a fetched dashboard is shared by the surfaces that show widgets (grid/dashboard-setup.ts). */
export { applyDashboardSetup, applyDashboardSetupOnce, filterControlMembers, type RuntimeChoices } from "../../grid/dashboard-setup";
