/** fleet.prometheus and fleet.prometheusNode: the fleet from the guards' series in Prometheus (../fleet-prom/). */
import type { EngineHandlers } from '../../../shared/contract';
import { prometheusFleet, prometheusNodeSeries } from '../fleet-prom/fleet';

type FleetPromHandlers = Pick<EngineHandlers, 'fleet.prometheus' | 'fleet.prometheusNode'>;

export function fleetPromHandlers(): FleetPromHandlers {
  return {
    'fleet.prometheus': (input, ec) => prometheusFleet(input.connection, ec.signal),
    'fleet.prometheusNode': ({ connection, ...req }, ec) => prometheusNodeSeries(connection, req, ec.signal),
  };
}
