import { after } from 'node:test';
import { startService, type Service } from './service.js';
import { freshStore, type TestStore } from './stores.js';

/**
 * What a test file starts, cleaned up once its tests are over: fresh stores (dropped) and service
 * processes (killed, if a failed test left them running; a passing test stops its own).
 */
export function harness() {
  const stores: TestStore[] = [];
  const services: Service[] = [];
  after(async () => {
    await Promise.all(services.map((s) => s.stop('SIGKILL')));
    await Promise.all(stores.map((s) => s.drop()));
  });
  return {
    /** A fresh, empty store of this run's backend. */
    async store(): Promise<TestStore> {
      const store = await freshStore();
      stores.push(store);
      return store;
    },
    /** The service as `npm start` runs it, with `env` added. */
    async service(env: NodeJS.ProcessEnv): Promise<Service> {
      const service = await startService(env);
      services.push(service);
      return service;
    },
  };
}
