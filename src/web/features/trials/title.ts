// Its own small file: the route tree (not code-split) imports it for the breadcrumb.

/** One definition for server and web (src/contract/trial-name.ts): the brief title where space is short. */
export { shortTrialTitle } from '../../../contract/trial-name';
