export * from './auth';
export * from './organizations';
export * from './audit';
