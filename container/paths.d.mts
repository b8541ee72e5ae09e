/** The image test, as a path from container/. */
export declare const CONTAINER_TEST: string;
export declare const BUILDAH: string;
export declare const DEBOOTSTRAP: string;
