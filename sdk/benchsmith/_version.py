"""The package version, in a leaf module: code inside the package imports it from here.

Importing it from ``benchsmith`` instead would make every such module depend on the
package's front door, which itself calls into the whole package.
"""

__version__ = "0.1.0"
