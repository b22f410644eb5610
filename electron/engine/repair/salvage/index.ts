/** The salvage room of repair/: its only entry from outside the room. */
export { planStoreSalvage, salvageStoreChunk, storeRootOf } from './salvage-store';
export { applySalvage, planSalvage } from './salvage';
