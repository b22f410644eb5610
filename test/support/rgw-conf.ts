/**
 * The `ceph.conf` of the single-node test cluster (one mon, one BlueStore OSD on a sparse file,
 * one radosgw), every daemon on 127.0.0.1, all state under one directory, cephx off.
 * Settings and their reasons: /work/shared/reference/s3-test-server.md.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface RgwPorts {
  mon: number;
  rgw: number;
  /** Messenger range for the OSD (public, cluster, heartbeat front/back). */
  msMin: number;
  msMax: number;
}

export function cephConf(dir: string, fsid: string, ports: RgwPorts): string {
  const g: Record<string, string | number | boolean> = {
    fsid,
    'mon host': `[v2:127.0.0.1:${ports.mon}]`,
    'mon initial members': 'a',
    'public addr': '127.0.0.1',
    'cluster addr': '127.0.0.1',
    'ms bind msgr1': false,
    'ms bind msgr2': true,
    'ms bind ipv6': false,
    'ms client mode': 'crc',
    'ms mon client mode': 'crc',
    'ms cluster mode': 'crc',
    'ms service mode': 'crc',
    'ms bind port min': ports.msMin,
    'ms bind port max': ports.msMax,
    'auth cluster required': 'none',
    'auth service required': 'none',
    'auth client required': 'none',
    'auth supported': 'none',
    'osd pool default size': 1,
    'osd pool default min size': 1,
    'osd pool default pg num': 8,
    'osd pool default pgp num': 8,
    'osd pool default pg autoscale mode': 'off',
    'mon allow pool size one': true,
    'mon warn on pool no redundancy': false,
    'mon data avail crit': 0,
    'mon data avail warn': 0,
    'osd crush chooseleaf type': 0,
    'run dir': join(dir, 'run'),
    'admin socket': join(dir, 'run', '$name.asok'),
    'log file': join(dir, 'log', '$name.log'),
    'log to stderr': false,
    'err to stderr': true,
    'mon data': join(dir, 'mon', '$cluster-$id'),
    'osd data': join(dir, 'osd', '$cluster-$id'),
    'osd objectstore': 'bluestore',
    'bluestore block create': true,
    'bluestore block size': 8589934592,
    'osd memory target': 1073741824,
    'rgw frontends': `beast endpoint=127.0.0.1:${ports.rgw} tcp_nodelay=1`,
    'rgw dns name': 'localhost',
    'rgw data': join(dir, 'rgw'),
    'rgw exit timeout secs': 2,
    'rgw enable usage log': false,
    // One monitor without a manager: keep the cluster quiet about it.
    'mon warn on insecure global id reclaim allowed': false,
  };
  const lines = Object.entries(g).map(([k, v]) => `  ${k} = ${v}`);
  return `[global]\n${lines.join('\n')}\n`;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/**
 * Picks ports below 32768 (higher ones can be taken by earlier client sockets): a block of 20
 * consecutive free ports starting at a random base, used as mon, rgw and the messenger range.
 */
export async function pickPorts(): Promise<RgwPorts> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 600) * 20;
    const ports = Array.from({ length: 20 }, (_, i) => base + i);
    const free = await Promise.all(ports.map(portFree));
    if (free.every(Boolean)) return { mon: base, rgw: base + 1, msMin: base + 2, msMax: base + 19 };
  }
  throw new Error('rgw: found no block of 20 free ports between 20000 and 32000 on 127.0.0.1');
}
