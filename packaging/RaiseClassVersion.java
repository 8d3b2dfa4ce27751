import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Raises the classes of a jar compiled for a class-file format older than Java 6's (picocli's,
 * built for Java 5) to Java 8's, with the stack maps that format requires, and rewrites the jar in
 * place. The AOT cache (JEP 483) keeps no class of the old format: picocli's 228 classes were read
 * from the jar, verified and linked at every start, 0.2 s of `gslb serve`'s 1.3 s to its first
 * answer on a 2-core VM. Every raised class is then loaded, verified and initialised here, so a
 * class the raising broke fails the build, not a start. Run by Maven at package time, after the
 * shade plugin (gslb-cli/pom.xml), with Java 25's Class-File API (JEP 484):
 *     java packaging/RaiseClassVersion.java gslb-cli/target/gslb.jar
 */
public class RaiseClassVersion {
    /** Java 6's format: the first with stack maps, the oldest the AOT cache keeps. */
    static final int OLDEST_KEPT = 50;
    /** Java 8's, the format raised to. */
    static final int RAISED = 52;

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args[0]);
        List<String> raised = new ArrayList<>();
        // zipfs: what is not written again is copied as it was, not compressed again
        try (FileSystem zip = FileSystems.newFileSystem(jar)) {
            // the stack maps need each class's superclasses: from this jar, else from the JDK
            ClassFile classFile = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                    ClassHierarchyResolver.ofResourceParsing(desc -> {
                                Path p = zip.getPath(desc.descriptorString().replaceAll("^L|;$", "") + ".class");
                                try {
                                    return Files.exists(p) ? Files.newInputStream(p) : null;
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            })
                            .orElse(ClassHierarchyResolver.defaultResolver())));
            ClassTransform raise = ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL) // with stack maps
                    .andThen((builder, element) -> builder.with(
                            element instanceof ClassFileVersion ? ClassFileVersion.of(RAISED, 0) : element));
            List<Path> classes;
            try (Stream<Path> all = Files.walk(zip.getPath("/"))) {
                classes = all.filter(p -> p.toString().endsWith(".class") && !p.startsWith("/META-INF")) // versions/: newer only
                        .toList();
            }
            for (Path p : classes) {
                byte[] bytes = Files.readAllBytes(p);
                ClassModel model = classFile.parse(bytes);
                if (model.majorVersion() < OLDEST_KEPT) {
                    Files.write(p, classFile.transformClass(model, raise));
                    raised.add(p.toString().substring(1));
                }
            }
        }
        verify(jar, raised);
        System.out.println("RaiseClassVersion: " + jar + ": " + raised.size() + " classes raised to Java 8's format");
    }

    /** Loads, verifies and initialises every raised class: a VerifyError fails the build. */
    static void verify(Path jar, List<String> raised) throws IOException, ClassNotFoundException {
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            for (String name : raised) {
                String className = name.substring(0, name.length() - ".class".length()).replace('/', '.');
                try {
                    Class.forName(className, true, loader);
                } catch (ExceptionInInitializerError e) {
                    // verified already: only its initialiser failed, outside a real start
                }
            }
        }
    }
}
