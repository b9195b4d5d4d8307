export { Layout } from './Layout';
export { theme } from './theme';
