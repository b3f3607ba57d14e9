export * from './auth';
export * from './organizations';
export * from './audit';
export * from './trials';
export * from './candidates';
export * from './prescreen';
export * from './messaging';
export * from './voice';
