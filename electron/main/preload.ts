/**
 * Preload (sandboxed, context-isolated): exposes exactly one object, `window.storeDoctor`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { buildBridge } from './bridge';

contextBridge.exposeInMainWorld('storeDoctor', buildBridge(ipcRenderer));
