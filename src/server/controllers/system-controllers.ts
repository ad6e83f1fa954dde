/**
 * The loops kube-apiserver runs in itself on a cluster's own objects, once it serves (beside the
 * namespace and CRD controllers, which every server runs): the `kubernetes` Service and its
 * endpoints (kubernetes-service.ts), the API Priority and Fairness configuration's consumer
 * and producer (apf-config-*.ts) and the default ServiceCIDR's (default-service-cidr.ts). A
 * server started without the system namespaces runs none.
 */
import type { ObjectStorage } from '../registry/object-storage.js';
import { ApfConfigConsumer } from './apf-config-consumer.js';
import { ApfConfigProducer } from './apf-config-producer.js';
import { DefaultServiceCIDRController } from './default-service-cidr.js';
import { KubernetesServiceController, type KubernetesServiceDeps } from './kubernetes-service.js';

/** What they work with. */
export interface SystemControllersDeps extends KubernetesServiceDeps {
  /** Creates the bootstrap APF configuration's missing objects (bootstrap/flowcontrol-config.ts). */
  ensureFlowControl: (objects: ObjectStorage) => Promise<void>;
  /** Creates the default ServiceCIDR when missing (bootstrap/default-service-cidr.ts). */
  ensureServiceCIDR: (objects: ObjectStorage) => Promise<void>;
}

/** The four, started, waited for and stopped together. */
export class SystemControllers {
  private readonly kubernetesService: KubernetesServiceController;
  private readonly apfConsumer: ApfConfigConsumer;
  private readonly apfProducer: ApfConfigProducer;
  private readonly serviceCIDR: DefaultServiceCIDRController;

  constructor(deps: SystemControllersDeps) {
    const { ensureFlowControl, ensureServiceCIDR, ...common } = deps;
    this.kubernetesService = new KubernetesServiceController(common);
    this.apfConsumer = new ApfConfigConsumer(common);
    this.apfProducer = new ApfConfigProducer({ ...common, ensure: ensureFlowControl });
    this.serviceCIDR = new DefaultServiceCIDRController({ ...common, ensure: ensureServiceCIDR });
  }

  /** Starts them, the `kubernetes` Service in front of `port`. */
  async start(port: number): Promise<void> {
    await this.kubernetesService.start(port);
    this.apfConsumer.start();
    this.apfProducer.start();
    this.serviceCIDR.start();
  }

  /** Resolves once no work is queued or running. */
  async idle(): Promise<void> {
    await this.kubernetesService.idle();
    await this.apfConsumer.idle();
  }

  async stop(): Promise<void> {
    await this.kubernetesService.stop();
    await this.apfProducer.stop();
    await this.serviceCIDR.stop();
    await this.apfConsumer.stop();
  }
}
